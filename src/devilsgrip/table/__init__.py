"""What both screens share: places, the drop policy, the words, the labels.

The browser game and the terminal game draw and take input; every decision
in between is made here once, on top of the engine and the
:class:`~devilsgrip.session.PlaySession`:

- **places**: the 24 cells, the stock and the talon, as ints;
- **the drop policy** (:func:`drop_move`): a legal build is played; a swap
  happens only when a pile is dropped on an empty cell or by a deliberate
  swap (:func:`swap_move`); anything else is refused with the engine's reason;
- **the narration**: every sentence a player sees names cards and places in
  words, in the player's language, capitalised and with a full stop
  ("10♣ from b2 onto 7♣ in h3. 2♥ from the stock fills b2.");
- **labels** of statuses, ratings, presets and rules, and the settings' text.

>>> from devilsgrip.game import Game
>>> from devilsgrip.table import DEAL, Words, act, refusal, say_error, say_event
>>> game = Game(5)
>>> words = Words("en")
>>> say_error(refusal(game, 0, 1), words)
'The 3 of diamonds is a base: bases reach the grid only by filling a space.'
>>> say_event(act(game, DEAL), game, words)
'Dealt 3 cards: 8♥, K♦, Q♦.'
"""

from __future__ import annotations

from devilsgrip.game import DEAL as DEAL
from devilsgrip.game import REDEAL as REDEAL
from devilsgrip.table.actions import (
    Action as Action,
)
from devilsgrip.table.actions import (
    Summary as Summary,
)
from devilsgrip.table.actions import (
    act as act,
)
from devilsgrip.table.actions import (
    close as close,
)
from devilsgrip.table.actions import (
    new_game as new_game,
)
from devilsgrip.table.actions import (
    play as play,
)
from devilsgrip.table.actions import (
    play_again as play_again,
)
from devilsgrip.table.actions import (
    redo as redo,
)
from devilsgrip.table.actions import (
    undo as undo,
)
from devilsgrip.table.controller import (
    drop_move as drop_move,
)
from devilsgrip.table.controller import (
    drop_refusal as drop_refusal,
)
from devilsgrip.table.controller import (
    give_up as give_up,
)
from devilsgrip.table.controller import (
    give_up_refusal as give_up_refusal,
)
from devilsgrip.table.controller import (
    move_refusal as move_refusal,
)
from devilsgrip.table.controller import (
    pick_up_refusal as pick_up_refusal,
)
from devilsgrip.table.controller import (
    refusal as refusal,
)
from devilsgrip.table.controller import (
    review_refusal as review_refusal,
)
from devilsgrip.table.controller import (
    stock_move as stock_move,
)
from devilsgrip.table.controller import (
    swap_move as swap_move,
)
from devilsgrip.table.controller import (
    swap_refusal as swap_refusal,
)
from devilsgrip.table.guide import (
    Guide as Guide,
)
from devilsgrip.table.guide import (
    first_steps as first_steps,
)
from devilsgrip.table.history import (
    ALL_RULES as ALL_RULES,
)
from devilsgrip.table.history import (
    HistoryEntry as HistoryEntry,
)
from devilsgrip.table.history import (
    history as history,
)
from devilsgrip.table.history import (
    history_entry as history_entry,
)
from devilsgrip.table.history import (
    stats_choices as stats_choices,
)
from devilsgrip.table.places import (
    PLACE_INDEX as PLACE_INDEX,
)
from devilsgrip.table.places import (
    PLACE_NAMES as PLACE_NAMES,
)
from devilsgrip.table.places import (
    PLACES as PLACES,
)
from devilsgrip.table.places import (
    STOCK as STOCK,
)
from devilsgrip.table.places import (
    TALON as TALON,
)
from devilsgrip.table.places import (
    Place as Place,
)
from devilsgrip.table.places import (
    move_arrow as move_arrow,
)
from devilsgrip.table.places import (
    move_places as move_places,
)
from devilsgrip.table.places import (
    parse_deal_number as parse_deal_number,
)
from devilsgrip.table.places import (
    parse_place as parse_place,
)
from devilsgrip.table.places import (
    place_name as place_name,
)
from devilsgrip.table.places import (
    read_deal_number as read_deal_number,
)
from devilsgrip.table.places import (
    targets as targets,
)
from devilsgrip.table.records import (
    export_file_name as export_file_name,
)
from devilsgrip.table.records import (
    import_told as import_told,
)
from devilsgrip.table.records import (
    records_path as records_path,
)
from devilsgrip.table.reviews import (
    LONG_SEARCHES_AT_ONCE as LONG_SEARCHES_AT_ONCE,
)
from devilsgrip.table.reviews import (
    REVIEW_SHARE_BEFORE_END as REVIEW_SHARE_BEFORE_END,
)
from devilsgrip.table.reviews import (
    CostlyMove as CostlyMove,
)
from devilsgrip.table.reviews import (
    costly_moves as costly_moves,
)
from devilsgrip.table.reviews import (
    long_search_memory as long_search_memory,
)
from devilsgrip.table.reviews import (
    position_text as position_text,
)
from devilsgrip.table.reviews import (
    review_moves_in_words as review_moves_in_words,
)
from devilsgrip.table.reviews import (
    review_record as review_record,
)
from devilsgrip.table.reviews import (
    review_rows as review_rows,
)
from devilsgrip.table.reviews import (
    review_session as review_session,
)
from devilsgrip.table.reviews import (
    review_share as review_share,
)
from devilsgrip.table.reviews import (
    say_open_values as say_open_values,
)
from devilsgrip.table.reviews import (
    say_review as say_review,
)
from devilsgrip.table.reviews import (
    say_review_progress as say_review_progress,
)
from devilsgrip.table.reviews import (
    search_room as search_room,
)
from devilsgrip.table.settings import (
    ANIMATIONS as ANIMATIONS,
)
from devilsgrip.table.settings import (
    DEFAULT_SETTINGS as DEFAULT_SETTINGS,
)
from devilsgrip.table.settings import (
    GUIDE_SEEN as GUIDE_SEEN,
)
from devilsgrip.table.settings import (
    SETTING_KEYS as SETTING_KEYS,
)
from devilsgrip.table.settings import (
    SOUNDS as SOUNDS,
)
from devilsgrip.table.settings import (
    decode_settings as decode_settings,
)
from devilsgrip.table.settings import (
    encode_setting as encode_setting,
)
from devilsgrip.table.settings import (
    presets_doc as presets_doc,
)
from devilsgrip.table.settings import (
    rules_parts as rules_parts,
)
from devilsgrip.table.words import (
    PRESET_LABELS as PRESET_LABELS,
)
from devilsgrip.table.words import (
    STATUS_LABELS as STATUS_LABELS,
)
from devilsgrip.table.words import (
    Event as Event,
)
from devilsgrip.table.words import (
    Words as Words,
)
from devilsgrip.table.words import (
    clock_text as clock_text,
)
from devilsgrip.table.words import (
    deal_label as deal_label,
)
from devilsgrip.table.words import (
    hint_refusal as hint_refusal,
)
from devilsgrip.table.words import (
    preset_label as preset_label,
)
from devilsgrip.table.words import (
    rating_label as rating_label,
)
from devilsgrip.table.words import (
    redeals_label as redeals_label,
)
from devilsgrip.table.words import (
    rules_label as rules_label,
)
from devilsgrip.table.words import (
    saving_warning as saving_warning,
)
from devilsgrip.table.words import (
    say_deal as say_deal,
)
from devilsgrip.table.words import (
    say_end as say_end,
)
from devilsgrip.table.words import (
    say_error as say_error,
)
from devilsgrip.table.words import (
    say_event as say_event,
)
from devilsgrip.table.words import (
    say_hint as say_hint,
)
from devilsgrip.table.words import (
    say_left as say_left,
)
from devilsgrip.table.words import (
    say_picked as say_picked,
)
from devilsgrip.table.words import (
    say_why_ended as say_why_ended,
)
from devilsgrip.table.words import (
    sentence as sentence,
)
from devilsgrip.table.words import (
    status_label as status_label,
)
