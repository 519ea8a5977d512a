/* The compiled search core: the run-mode exhaustive search, the win search, the
 * playouts, the beam and the lower bounds of devilsgrip.solver, on compact integer state.
 *
 * Every function here is a transcription of the pure-Python reference (search.py,
 * clairvoyant.py, winnable.py, playouts.py, bounds.py, moves.py): the same
 * children in the same order, the same table and the same node counts.  The
 * differential tests (tests/solver/test_cores.py) hold the two equal; the
 * arguments for why each bound is sound live in the docstrings of bounds.py.
 *
 * State: a run-mode grid is two 96-bit multisets of 2-bit counters (tops T and
 * bottoms B, bit 2c for card c), held in unsigned __int128; the sequence outside
 * the grid is an int array; the transposition table is an open-addressing hash
 * table of fixed-size keys (Table, also usable from Python as a mapping).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;

#define N_CARDS 48
#define GRID_SIZE 24
#define MAXN 128          /* cards outside the grid at most (72 in a real deal) */
#define MAXPATH 1024
#define CLOCK_EVERY 1024
#define TALON_BOUND_STOCK 12
#define NEVER (1 << 30)

enum { TALON = 0, EMPTY = 1, PEEL = 2 };

static int LEVEL[N_CARDS];
static int PREV[N_CARDS];
static u128 LOW;            /* the low bit of each of 48 counters */
static u128 NONBASE;        /* the low bit of each non-base card's counter */
static u128 NONBASE_BOTH;
static u128 BASE_LOW;       /* the low bit of each base's counter */

#define TF(c) (((u128)1) << (2 * (c)))
#define CNT(x, c) ((int)(((x) >> (2 * (c))) & 3))

static PyObject *TimeUpError = NULL;
static PyObject *PhaseEndError = NULL;
static PyObject *perf_counter_fn = NULL;

static inline int pop128(u128 x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}
static inline u128 nonzero(u128 x) { return (x | (x >> 1)) & LOW; }
static inline int count2(u128 x) { return pop128(x & LOW) + 2 * pop128((x >> 1) & LOW); }
static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }

/* ------------------------------------------------------------ Python ints */
static int int_to_bytes(PyObject *x, unsigned char *buf, size_t size) {
    if (!PyLong_Check(x)) {
        PyErr_SetString(PyExc_TypeError, "an int was expected");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    return _PyLong_AsByteArray((PyLongObject *)x, buf, size, 1, 0, 1);
#else
    return _PyLong_AsByteArray((PyLongObject *)x, buf, size, 1, 0);
#endif
}

static u128 bytes_u128(const unsigned char *b, int len) {
    u128 v = 0;
    for (int i = len - 1; i >= 0; i--) v = (v << 8) | b[i];
    return v;
}

/* A run grid int: tops in bits 0..95, bottoms from bit 96. */
static int grid_from_int(PyObject *g, u128 *T, u128 *B) {
    unsigned char buf[24];
    if (int_to_bytes(g, buf, 24) < 0) return -1;
    *T = bytes_u128(buf, 12);
    *B = bytes_u128(buf + 12, 12);
    return 0;
}

static int mask_from_int(PyObject *m, u128 *mask) {
    unsigned char buf[16];
    if (int_to_bytes(m, buf, 16) < 0) return -1;
    *mask = bytes_u128(buf, 16);
    return 0;
}

/* ------------------------------------------------------------------ table */
/* A slot holds a key (grid T and B, mask, redeals done r, cut p) and its value in 48
 * bytes: r, p and the value go in bits that no key uses.  A mask has a bit per card
 * outside the grid at the root of a search, 96 at most: its bits 96..127 hold r + 1 (0
 * with unlimited redeals, where the key has no r).  B's bits 112..127 are free too (a run
 * grid's bottoms use 96, a card grid's upper half 112): the cut in 112..119, the value + 1
 * in 120..127 (0: an empty slot).  A key that does not fit is never stored (a table may
 * forget, never mislead); the mapping refuses one. */
typedef struct {
    u128 T, B, mask;
} Slot;

#define MASK_BITS 96
#define R_SHIFT 96
#define P_SHIFT 112
#define V_SHIFT 120
#define LOW_BITS(n) ((((u128)1) << (n)) - 1)
#define VALUE_MOST 254

static inline int slot_value(const Slot *s) { return (int)(s->B >> V_SHIFT) - 1; }

/* The key as a slot holds it (its value 0: empty), or -1 when it does not fit. */
static inline int key_pack(u128 B, u128 mask, long long r, int p, u128 *Bk, u128 *mk) {
    if ((B >> P_SHIFT) || (mask >> MASK_BITS) || r < -1 || r >= 0xffffffffLL || p < 0 ||
        p > 0xff)
        return -1;
    *Bk = B | ((u128)p << P_SHIFT);
    *mk = mask | ((u128)(r + 1) << R_SHIFT);
    return 0;
}

typedef struct {
    PyObject_HEAD
    Slot *slots; /* the raw allocator's: rebuilt without the GIL */
    size_t cap;  /* a power of 2 */
    size_t len;
    int busy;    /* being rebuilt or cleared, the GIL let go meanwhile (see table_grow) */
    size_t gen;  /* how many times the slots were rebuilt (a Hint holds until then) */
} TableObject;

static PyTypeObject TableType;

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* of a packed key */
static inline uint64_t key_hash(u128 T, u128 Bk, u128 mk) {
    uint64_t h = mix64((uint64_t)T ^ 0x9E3779B97F4A7C15ULL);
    h = mix64(h ^ (uint64_t)(T >> 64));
    h = mix64(h ^ (uint64_t)Bk);
    h = mix64(h ^ (uint64_t)(Bk >> 64));
    h = mix64(h ^ (uint64_t)mk);
    h = mix64(h ^ (uint64_t)(mk >> 64));
    return h;
}

/* The slot of a packed key, looked for from slots[i] on: its own, or the empty one where
 * it would go. */
static inline Slot *slot_walk(Slot *slots, size_t cap, size_t i, u128 T, u128 Bk, u128 mk) {
    for (;;) {
        Slot *s = &slots[i];
        if (!(s->B >> V_SHIFT)) return s;
        if (s->T == T && (s->B & LOW_BITS(V_SHIFT)) == Bk && s->mask == mk) return s;
        i = (i + 1) & (cap - 1);
    }
}

static Slot *slot_find(Slot *slots, size_t cap, u128 T, u128 Bk, u128 mk) {
    return slot_walk(slots, cap, key_hash(T, Bk, mk) & (cap - 1), T, Bk, mk);
}

/* Where a key was last found in a table: its slot, or the empty one where it would go.
 * Until the slots are rebuilt (grown or cleared) nothing leaves them, so the key's place
 * can only have moved further along the full slots after that one: a search that comes
 * back to the key (to store its value once its moves are searched) walks on from there,
 * instead of from the key's hash, a part of the table long gone from the cache by then. */
typedef struct {
    Slot *slot;
    size_t gen;
} Hint;

static const Hint NO_HINT = {NULL, 0};

/* The slot of a packed key, from the hint when it still holds. */
static inline Slot *slot_hinted(const TableObject *t, Hint hint, u128 T, u128 Bk, u128 mk) {
    if (hint.slot && hint.gen == t->gen)
        return slot_walk(t->slots, t->cap, (size_t)(hint.slot - t->slots), T, Bk, mk);
    return slot_find(t->slots, t->cap, T, Bk, mk);
}

static inline void table_prefetch(const TableObject *t, u128 T, u128 B, u128 mask,
                                  long long r, int p) {
#if defined(__GNUC__) || defined(__clang__)
    u128 Bk, mk;
    if (t->cap && key_pack(B, mask, r, p, &Bk, &mk) == 0)
        __builtin_prefetch(&t->slots[key_hash(T, Bk, mk) & (t->cap - 1)]);
#else
    (void)t, (void)T, (void)B, (void)mask, (void)r, (void)p; /* no prefetch to ask for */
#endif
}

/* A key's value in the table (-1: none), its place kept in *hint: looked for from the
 * hint given there when it holds. */
static inline int table_get_at(TableObject *t, Hint *hint, u128 T, u128 B, u128 mask,
                               long long r, int p) {
    u128 Bk, mk;
    if (!t->cap || key_pack(B, mask, r, p, &Bk, &mk) < 0) {
        *hint = NO_HINT;
        return -1;
    }
    Slot *slot = slot_hinted(t, *hint, T, Bk, mk);
    *hint = (Hint){slot, t->gen};
    return slot_value(slot);
}

static inline int table_get(TableObject *t, u128 T, u128 B, u128 mask, long long r, int p) {
    Hint hint = NO_HINT;
    return table_get_at(t, &hint, T, B, mask, r, p);
}

/* A table as large as a search makes it takes a good part of a second to rebuild: the
 * other threads of the program (a server answering moves, a screen drawing itself) run
 * meanwhile, the GIL let go, and the table is marked busy.  Another thread may then read
 * it (the old slots stay as they are until the new ones replace them, the GIL held), but
 * what it would store is dropped, and a clear is skipped: a table only ever keeps proven
 * values, and one that forgets some costs a search time, never a wrong answer. */
#define LET_OTHERS_RUN_FROM ((size_t)1 << 16) /* slots: smaller tables are done at once */

/* A full slot put where its key goes among slots. */
static inline void slot_put(Slot *slots, size_t cap, const Slot *s) {
    *slot_find(slots, cap, s->T, s->B & LOW_BITS(V_SHIFT), s->mask) = *s;
}

static void slots_rehash(Slot *slots, size_t cap, const Slot *old, size_t oldcap) {
    memset(slots, 0, cap * sizeof(Slot));
    for (size_t i = 0; i < oldcap; i++)
        if (slot_value(&old[i]) >= 0) slot_put(slots, cap, &old[i]);
}

/* The start of a rebuild of t's slots (cap of them after it): a large table is rebuilt
 * with the GIL let go, marked busy meanwhile; the thread state to give rebuild_end. */
static PyThreadState *rebuild_begin(TableObject *t, size_t cap) {
    if (cap < LET_OTHERS_RUN_FROM) return NULL;
    t->busy = 1;
    return PyEval_SaveThread();
}

static void rebuild_end(TableObject *t, PyThreadState *saved) {
    if (saved) {
        PyEval_RestoreThread(saved);
        t->busy = 0;
    }
    t->gen++; /* with the lock held: a hint of the slots before is now told apart */
}

/* t's slots rebuilt with cap slots (cap == t->cap: emptied in place), or NULL when memory
 * runs out. */
static Slot *slots_rebuilt(TableObject *t, size_t cap) {
    PyThreadState *saved = rebuild_begin(t, cap);
    Slot *slots = t->slots;
    if (cap == t->cap)
        slots_rehash(slots, cap, NULL, 0);
    else if ((slots = PyMem_RawMalloc(cap * sizeof(Slot))) != NULL)
        slots_rehash(slots, cap, t->slots, t->cap);
    rebuild_end(t, saved);
    return slots;
}

static int table_grow(TableObject *t) {
    size_t cap = t->cap ? 2 * t->cap : 1024;
    Slot *slots = slots_rebuilt(t, cap);
    if (!slots) {
        PyErr_NoMemory();
        return -1;
    }
    PyMem_RawFree(t->slots);
    t->slots = slots;
    t->cap = cap;
    return 0;
}

static void table_clear(TableObject *t) {
    if (t->busy) return;
    slots_rebuilt(t, t->cap);
    t->len = 0;
}

/* How many cards a slot's position has taken out of the root's sequence. */
static inline int slot_taken(const Slot *s) { return pop128(s->mask & LOW_BITS(MASK_BITS)); }

/* A full table keeps the positions nearest the root, those with the fewest cards taken
 * (whose searches were the longest), as many of them as half its entries allow with every
 * position of a depth kept or none, and forgets the others (search.shed, the same in the
 * pure-Python core).  A large table is sifted with the GIL let go, as it is rebuilt. */
static void table_shed(TableObject *t) {
    if (t->busy) return;
    PyThreadState *saved = rebuild_begin(t, t->cap);
    Slot *slots = t->slots;
    size_t count[MASK_BITS + 1] = {0};
    for (size_t i = 0; i < t->cap; i++)
        if (slot_value(&slots[i]) >= 0) count[slot_taken(&slots[i])]++;
    size_t kept = 0;
    int most = -1;
    while (most < MASK_BITS && kept + count[most + 1] <= t->len / 2) kept += count[++most];
    Slot *keep = kept ? PyMem_RawMalloc(kept * sizeof(Slot)) : NULL;
    if (!keep) kept = 0; /* no memory for them: all forgotten (a table may forget) */
    size_t j = 0;
    for (size_t i = 0; i < t->cap && j < kept; i++)
        if (slot_value(&slots[i]) >= 0 && slot_taken(&slots[i]) <= most) keep[j++] = slots[i];
    slots_rehash(slots, t->cap, keep, kept);
    PyMem_RawFree(keep);
    rebuild_end(t, saved);
    t->len = kept;
}

/* Set a value, 0..VALUE_MOST (the caller decides whether it replaces the old one), the
 * key looked for from the hint when it holds; a key that does not fit is dropped. */
static int table_set_at(TableObject *t, Hint hint, u128 T, u128 B, u128 mask, long long r,
                        int p, int value) {
    u128 Bk, mk;
    if (t->busy) return 0; /* dropped while another thread rebuilds the table */
    if (value < 0 || value > VALUE_MOST || key_pack(B, mask, r, p, &Bk, &mk) < 0) return 0;
    if (4 * (t->len + 1) > 3 * t->cap && table_grow(t) < 0) return -1; /* 3/4 full at most */
    Slot *s = slot_hinted(t, hint, T, Bk, mk);
    if (!(s->B >> V_SHIFT)) {
        t->len++;
        s->T = T;
        s->mask = mk;
    }
    s->B = Bk | ((u128)(value + 1) << V_SHIFT);
    return 0;
}

static int table_set(TableObject *t, u128 T, u128 B, u128 mask, long long r, int p, int value) {
    return table_set_at(t, NO_HINT, T, B, mask, r, p, value);
}

static int card_grid_key(PyObject *tuple, u128 *lo, u128 *hi);

/* A key tuple of search.py: (grid, mask, cut) or (grid, mask, cut, redeals); the grid a
 * run-mode int or a card-mode tuple of pile codes. */
static int parse_key(PyObject *key, u128 *T, u128 *B, u128 *mask, long long *r, int *p) {
    if (!PyTuple_Check(key) || (PyTuple_GET_SIZE(key) != 3 && PyTuple_GET_SIZE(key) != 4)) {
        PyErr_SetString(PyExc_TypeError, "a table key is (grid, mask, cut[, redeals])");
        return -1;
    }
    PyObject *grid = PyTuple_GET_ITEM(key, 0);
    if (PyTuple_Check(grid) ? card_grid_key(grid, T, B) < 0 : grid_from_int(grid, T, B) < 0)
        return -1;
    if (mask_from_int(PyTuple_GET_ITEM(key, 1), mask) < 0) return -1;
    long pp = PyLong_AsLong(PyTuple_GET_ITEM(key, 2));
    if (pp == -1 && PyErr_Occurred()) return -1;
    *p = pp < 0 || pp > INT_MAX ? -1 : (int)pp;
    *r = -1;
    if (PyTuple_GET_SIZE(key) == 4) {
        *r = PyLong_AsLongLong(PyTuple_GET_ITEM(key, 3));
        if (*r == -1 && PyErr_Occurred()) return -1;
        if (*r < 0) {
            PyErr_SetString(PyExc_ValueError, "a table key's redeals are 0 or more");
            return -1;
        }
    }
    u128 Bk, mk;
    if (key_pack(*B, *mask, *r, *p, &Bk, &mk) < 0) {
        PyErr_SetString(PyExc_ValueError,
                        "a table key out of range (96 cards outside, cut 0..255, redeals below 2**32 - 1)");
        return -1;
    }
    return 0;
}

static PyObject *Table_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    TableObject *t = (TableObject *)type->tp_alloc(type, 0);
    if (!t) return NULL;
    t->slots = NULL;
    t->cap = 0;
    t->len = 0;
    t->busy = 0;
    return (PyObject *)t;
}

static void Table_dealloc(TableObject *t) {
    PyMem_RawFree(t->slots);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static Py_ssize_t Table_len(TableObject *t) { return (Py_ssize_t)t->len; }

static PyObject *Table_get(TableObject *t, PyObject *args) {
    PyObject *key, *dflt = Py_None;
    if (!PyArg_ParseTuple(args, "O|O", &key, &dflt)) return NULL;
    u128 T, B, mask;
    long long r;
    int p;
    if (parse_key(key, &T, &B, &mask, &r, &p) < 0) return NULL;
    int v = table_get(t, T, B, mask, r, p);
    if (v < 0) {
        Py_INCREF(dflt);
        return dflt;
    }
    return PyLong_FromLong(v);
}

static PyObject *Table_subscript(TableObject *t, PyObject *key) {
    u128 T, B, mask;
    long long r;
    int p;
    if (parse_key(key, &T, &B, &mask, &r, &p) < 0) return NULL;
    int v = table_get(t, T, B, mask, r, p);
    if (v < 0) {
        PyErr_SetObject(PyExc_KeyError, key);
        return NULL;
    }
    return PyLong_FromLong(v);
}

static int Table_ass_subscript(TableObject *t, PyObject *key, PyObject *value) {
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "entries are not deleted one by one");
        return -1;
    }
    u128 T, B, mask;
    long long r;
    int p;
    if (parse_key(key, &T, &B, &mask, &r, &p) < 0) return -1;
    long v = PyLong_AsLong(value);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0 || v > VALUE_MOST) {
        PyErr_SetString(PyExc_ValueError, "a table value is a score (0 to 254)");
        return -1;
    }
    return table_set(t, T, B, mask, r, p, (int)v);
}

static int Table_contains(TableObject *t, PyObject *key) {
    u128 T, B, mask;
    long long r;
    int p;
    if (parse_key(key, &T, &B, &mask, &r, &p) < 0) return -1;
    return table_get(t, T, B, mask, r, p) >= 0;
}

static PyObject *Table_clear(TableObject *t, PyObject *unused) {
    table_clear(t);
    Py_RETURN_NONE;
}

static PyObject *Table_shed(TableObject *t, PyObject *unused) {
    (void)unused;
    table_shed(t);
    Py_RETURN_NONE;
}

static PyObject *Table_add(TableObject *t, PyObject *key) {
    u128 T, B, mask;
    long long r;
    int p;
    if (parse_key(key, &T, &B, &mask, &r, &p) < 0) return NULL;
    if (table_set(t, T, B, mask, r, p, 0) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Table_rebuilding(TableObject *t, void *unused) {
    return PyBool_FromLong(t->busy);
}

static PyGetSetDef Table_getset[] = {
    {"rebuilding", (getter)Table_rebuilding, NULL,
     "Whether a search in another thread is rebuilding the table now (what is stored "
     "meanwhile is dropped).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Table_methods[] = {
    {"get", (PyCFunction)Table_get, METH_VARARGS, "The value of a key, or the default."},
    {"clear", (PyCFunction)Table_clear, METH_NOARGS, "Forget every entry."},
    {"shed", (PyCFunction)Table_shed, METH_NOARGS,
     "Keep the entries nearest the root (fewest cards taken), half at most."},
    {"add", (PyCFunction)Table_add, METH_O, "Add a key (as a set does)."},
    {NULL, NULL, 0, NULL},
};

static PyMappingMethods Table_as_mapping = {
    (lenfunc)Table_len, (binaryfunc)Table_subscript, (objobjargproc)Table_ass_subscript};
static PySequenceMethods Table_as_sequence = {
    .sq_length = (lenfunc)Table_len, .sq_contains = (objobjproc)Table_contains};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "devilsgrip.solver._core.Table",
    .tp_basicsize = sizeof(TableObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A transposition table of run-mode positions: keys (grid, mask, cut[, redeals]), "
              "values scores.  While a search in another thread rebuilds it (rebuilding), "
              "it is read as it was, and what is stored or cleared meanwhile is dropped.",
    .tp_new = Table_new,
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_methods = Table_methods,
    .tp_getset = Table_getset,
    .tp_as_mapping = &Table_as_mapping,
    .tp_as_sequence = &Table_as_sequence,
};

/* ----------------------------------------------------------------- bounds */
typedef struct {
    int fill;          /* spaces filled from the talon */
    int unlimited;     /* unlimited redeals */
    long long redeals; /* redeals allowed (0 when unlimited, as "or 0" reads it) */
    int k;             /* draw */
} Rules;

static inline int redeal_left(const Rules *R, long long r) {
    return R->unlimited || r < R->redeals;
}

static int talon_bottom_lost(const int *seq, int p) {
    int j = -1;
    for (int i = 0; i < p; i++)
        if (!LEVEL[seq[i]]) {
            j = i;
            break;
        }
    if (j < 0) return 0;
    int sizes[N_CARDS][2];
    for (int c = 0; c < N_CARDS; c++) sizes[c][0] = sizes[c][1] = 4;
    for (int i = 0; i < j; i++) {
        int card = seq[i], level = LEVEL[card];
        int *two = sizes[card - 3 * level];
        if (two[0] == level + 1)
            two[0] = level;
        else if (two[1] == level + 1)
            two[1] = level;
        else
            return 1;
    }
    int *two = sizes[seq[j]];
    return !(two[0] == 1 || two[1] == 1);
}

static void value_counts(u128 T, u128 B, int *tops, int *bots) {
    for (int c = 0; c < N_CARDS; c++) {
        tops[c] = CNT(T, c);
        bots[c] = LEVEL[c] ? CNT(B, c) : 0;
    }
}

static int term_change(int x, const int *tops, const int *bots, const int *cnt,
                       const int *contrib) {
    int delta = 0, w = x;
    for (;;) {
        if (LEVEL[w])
            delta += imin(bots[w], tops[w - 3] + cnt[w - 3] - cnt[w]) - contrib[w];
        else
            delta += -cnt[w] - contrib[w];
        if (w != x || LEVEL[x] == 3) return delta;
        w = x + 3;
    }
}

static int prefix_ok(const int *seq, int p, int j, int m, const int *tops, const int *bots) {
    char present[N_CARDS];
    int room[N_CARDS];
    for (int c = 0; c < N_CARDS; c++) {
        present[c] = tops[c] > 0;
        room[c] = LEVEL[c] ? tops[c - 3] : 0;
    }
    for (int i = j + 1; i < p; i++) {
        int c = seq[i];
        present[c] = 1;
        if (LEVEL[c] < 3) room[c + 3]++;
    }
    for (int i = p; i < m; i++) present[seq[i]] = 1;
    int total = 0;
    for (int w = 0; w < N_CARDS; w++)
        if (LEVEL[w]) total += imin(room[w], bots[w]);
    for (int i = p; i < m; i++) {
        int x = seq[i], level = LEVEL[x];
        if (level < 3) {
            int w = x + 3;
            int r = ++room[w];
            if (r <= bots[w]) total++;
        }
        if (level == 0)
            total--;
        else if (!present[x - 3]) {
            int r = --room[x];
            if (r < bots[x]) total--;
        } else
            continue;
        if (total < 0) return 0;
    }
    return 1;
}

/* The stack part of the counting bound: the cut, and the sum D above it (*has). */
static int count_cut(const Rules *R, const int *seq, int n, int p, const int *tops,
                     const int *bots, const int *base_terms, int *rest, int *has) {
    int cnt[N_CARDS] = {0}, cs[N_CARDS] = {0}, contrib[N_CARDS];
    char badf[N_CARDS] = {0};
    int total = 0, bad = 0;
    for (int c = 0; c < N_CARDS; c++) {
        contrib[c] = base_terms[c];
        total += contrib[c];
    }
    int fill = R->fill;
    int full = fill && p == n;
    int m = p;
    for (int j = p - 1; j >= 0; j--) {
        int x = seq[j];
        int stock = 0;
        for (;;) {
            int cx = ++cnt[x];
            if (stock) cs[x]++;
            int level = LEVEL[x], c, b;
            if (level) {
                int sup = tops[x - 3] + cnt[x - 3];
                c = sup - cx;
                if (bots[x] < c) c = bots[x];
                b = !full && cx - cs[x] > sup;
            } else {
                c = -cx;
                b = !full && cx > cs[x];
            }
            total += c - contrib[x];
            contrib[x] = c;
            if (b != badf[x]) {
                bad += b ? 1 : -1;
                badf[x] = (char)b;
            }
            if (level < 3) {
                int w = x + 3;
                int sup = tops[x] + cx;
                c = sup - cnt[w];
                if (bots[w] < c) c = bots[w];
                total += c - contrib[w];
                contrib[w] = c;
                b = !full && cnt[w] - cs[w] > sup;
                if (b != badf[w]) {
                    bad += b ? 1 : -1;
                    badf[w] = (char)b;
                }
            }
            if (!bad && total >= 0 && (full || prefix_ok(seq, p, j, m, tops, bots))) break;
            if (m == n) {
                cnt[seq[j]]--;
                *rest = total + term_change(seq[j], tops, bots, cnt, contrib);
                *has = 1;
                return j;
            }
            x = seq[m];
            stock = 1;
            m++;
            if (m == n && fill && !full) {
                full = 1;
                bad = 0;
                memset(badf, 0, sizeof badf);
            }
        }
    }
    *has = 0;
    return -1;
}

static int count_bound(const Rules *R, u128 T, u128 B, const int *seq, int n, int p, int fixed) {
    int tops[N_CARDS], bots[N_CARDS];
    value_counts(T, B, tops, bots);
    int cut = -1;
    if (fixed && p) {
        int base_terms[N_CARDS];
        for (int w = 0; w < N_CARDS; w++) base_terms[w] = imin(bots[w], w >= 3 ? tops[w - 3] : 0);
        int rest, has;
        cut = count_cut(R, seq, n, p, tops, bots, base_terms, &rest, &has);
        if (has) return cut + 1 + imax(0, -rest);
    }
    int cnt[N_CARDS] = {0};
    for (int i = cut + 1; i < n; i++) cnt[seq[i]]++;
    int sum = 0;
    for (int w = 0; w < N_CARDS; w++)
        sum += LEVEL[w] ? imin(bots[w], tops[w - 3] + cnt[w - 3] - cnt[w]) : -cnt[w];
    return cut + 1 + imax(0, -sum);
}

static int stack_tail(const Rules *R, const int *seq, int j, u128 seen, u128 need, int bases,
                      u128 bcount) {
    int fill = R->fill;
    int blocked = bases + count2(need & ~(seen * 3));
    int live = count2(bcount & ((seen << 6) * 3));
    for (int i = j - 1; i >= 0; i--) {
        int x = seq[i];
        if (LEVEL[x]) {
            need += TF(x - 3);
            if (!((seen >> (2 * x - 6)) & 1)) {
                if (!fill) return i + 1;
                blocked++;
            }
        } else {
            if (!fill) return i + 1;
            blocked++;
        }
        if (blocked > live) return i + 1;
        if (!((seen >> (2 * x)) & 1)) {
            seen |= TF(x);
            blocked -= (int)((need >> (2 * x)) & 3);
            if (LEVEL[x] < 3) live += (int)((bcount >> (2 * x + 6)) & 3);
        }
    }
    return 0;
}

static int stack_bound(const Rules *R, const int *seq, int n, u128 tops, u128 bcount, int p) {
    int fill = R->fill;
    u128 talon_seen = tops, talon_need = 0, stock_seen = 0, stock_need = 0;
    int talon_bases = 0, stock_bases = 0, m0 = p;
    for (int j = p - 1; j >= 0; j--) {
        int x = seq[j];
        if (LEVEL[x]) {
            talon_need += TF(x - 3);
            if (((talon_seen | stock_seen) >> (2 * x - 6)) & 1) {
                talon_seen |= TF(x);
                continue;
            }
        } else
            talon_bases++;
        int m = m0;
        u128 s_seen = stock_seen, s_need = stock_need;
        int s_bases = stock_bases;
        if (talon_bases && !fill) return j + 1;
        int has_failed = 0;
        u128 failed = 0;
        for (;;) {
            u128 seen = talon_seen | s_seen;
            u128 miss = ~(seen * 3);
            if ((!has_failed || seen != failed) &&
                ((fill && m == n) || !(talon_bases || (talon_need & miss)))) {
                int blocked = talon_bases + count2(talon_need & miss) + s_bases +
                              count2(s_need & miss);
                if (blocked == 0 || blocked <= count2(bcount & ((seen << 6) * 3))) break;
                failed = seen;
                has_failed = 1;
            }
            if (m == n) return j + 1;
            int y = seq[m];
            s_seen |= TF(y);
            if (LEVEL[y])
                s_need += TF(y - 3);
            else
                s_bases++;
            m++;
        }
        m0 = m;
        stock_seen = s_seen;
        stock_need = s_need;
        stock_bases = s_bases;
        talon_seen |= TF(x);
        if (m0 == n)
            return stack_tail(R, seq, j, talon_seen | stock_seen, talon_need + stock_need,
                              talon_bases + stock_bases, bcount);
    }
    return 0;
}

static int talon_bound(const Rules *R, const int *seq, u128 seen, u128 bcount, int p) {
    int fill = R->fill;
    u128 ready = bcount & ((seen << 6) * 3);
    int spare = count2(ready);
    u128 waiting = bcount & ~ready;
    for (int i = p - 1; i >= 0; i--) {
        int x = seq[i], prev = PREV[x];
        if (prev < 0 || !((seen >> (2 * prev)) & 1)) {
            if (!(fill && spare)) return i + 1;
            spare--;
            if (prev >= 0) waiting += TF(x);
        }
        u128 bit = TF(x);
        if (!(seen & bit)) {
            seen |= bit;
            if (LEVEL[x] < 3) {
                int shift = 2 * x + 6;
                u128 released = (waiting >> shift) & 3;
                if (released) {
                    spare += (int)released;
                    waiting -= released << shift;
                }
            }
        }
    }
    return 0;
}

#define ALIGNMENT_STEPS 400
#define PACE_SLOTS 1024 /* more than the schedules that may fail (ALIGNMENT_STEPS) */
#define MAXCHAINS GRID_SIZE

/* bounds._latest_ready_start */
static int latest_ready_start(int q, int deals, int spare, const int *waits) {
    int second = spare == 1;
    for (int a = deals; a >= 0; a--) {
        if (!second) {
            int t2 = q + 3 * a + 2;
            second = waits[t2] == t2;
        }
        int t = q + 3 * a + 1;
        if (second && waits[t] == t) return t;
    }
    return 0;
}

/* bounds._matched */
static int matched(const int *chains, int nchains, const int *times, int ntimes) {
    int k = 0;
    for (int j = 0; j < ntimes; j++) {
        if (chains[k] >= times[j]) return 0;
        k++;
    }
    for (; k < nchains; k++)
        if (chains[k] >= NEVER) return 0;
    return 1;
}

/* The schedules of _fills_keep_pace, with the set of those that failed. */
typedef struct {
    const int *times, *waits;
    int ntimes, steps, nfailed;
    int fidx[PACE_SLOTS], flen[PACE_SLOTS];
    int fstate[PACE_SLOTS][MAXCHAINS];
    int slot[2 * PACE_SLOTS]; /* open addressing: an index into the failed ones + 1, or 0 */
} Pace;

static unsigned pace_hash(int idx, const int *state, int len) {
    uint64_t h = (uint64_t)idx * 0x9E3779B97F4A7C15ULL + (uint64_t)len;
    for (int j = 0; j < len; j++) h = mix64(h ^ (uint64_t)(unsigned)state[j]);
    return (unsigned)(h & (2 * PACE_SLOTS - 1));
}

static int pace_failed(const Pace *P, int idx, const int *state, int len) {
    for (unsigned h = pace_hash(idx, state, len);; h = (h + 1) & (2 * PACE_SLOTS - 1)) {
        int e = P->slot[h];
        if (!e) return 0;
        e--;
        if (P->fidx[e] == idx && P->flen[e] == len &&
            !memcmp(P->fstate[e], state, sizeof(int) * (size_t)len))
            return 1;
    }
}

static int pace_fail(Pace *P, int idx, const int *state, int len) {
    if (P->nfailed < PACE_SLOTS && !pace_failed(P, idx, state, len)) {
        int e = P->nfailed++;
        P->fidx[e] = idx;
        P->flen[e] = len;
        memcpy(P->fstate[e], state, sizeof(int) * (size_t)len);
        unsigned h = pace_hash(idx, state, len);
        while (P->slot[h]) h = (h + 1) & (2 * PACE_SLOTS - 1);
        P->slot[h] = e + 1;
    }
    return 0;
}

/* _fills_keep_pace's fill: a chain emptied at time t (state sorted, kept sorted). */
static int pace_fill(int *state, int len, int t, const int *waits) {
    if (state[0] >= t) return 0;
    int v = waits[t], j = 0;
    while (j + 1 < len && state[j + 1] < v) {
        state[j] = state[j + 1];
        j++;
    }
    state[j] = v;
    return 1;
}

/* _fills_keep_pace's go: 1, 0, or -1 when the steps ran out. */
static int pace_go(Pace *P, int idx, const int *state, int len) {
    if (idx == P->ntimes) return !len || state[len - 1] < NEVER;
    if (pace_failed(P, idx, state, len)) return 0;
    if (--P->steps < 0) return -1;
    const int *times = P->times, *waits = P->waits;
    int q = idx ? times[idx - 1] : 0, i = times[idx];
    int deals = (i - q - 1) / 3, spare = (i - q - 1) % 3;
    int first = spare == 0 ? i : latest_ready_start(q, deals, spare, waits);
    int next[MAXCHAINS];
    if (first && state[0] < first) {
        for (int j = 1; j < len; j++) next[j - 1] = state[j] <= i ? 0 : state[j];
        int got = pace_go(P, idx + 1, next, len - 1);
        if (got) return got;
        return pace_fail(P, idx, state, len);
    }
    if (spare) {
        for (int a = 0; a <= deals; a++)
            for (int b = 0; b <= (spare == 2 ? deals - a : 0); b++) {
                int st[MAXCHAINS];
                memcpy(st, state, sizeof(int) * (size_t)len);
                if (!pace_fill(st, len, q + 3 * a + 1, waits)) continue;
                if (spare == 2 && !pace_fill(st, len, q + 3 * (a + b) + 2, waits)) continue;
                if (st[0] >= i) continue;
                for (int j = 1; j < len; j++) next[j - 1] = st[j] <= i ? 0 : st[j];
                int got = pace_go(P, idx + 1, next, len - 1);
                if (got) return got;
            }
    }
    return pace_fail(P, idx, state, len);
}

/* bounds._fills_keep_pace: 1, 0, or -1 (nothing known) after max_steps schedules. */
static int fills_keep_pace(const int *chains, int nchains, const int *times, int ntimes,
                           const int *waits, int max_steps) {
    int state[MAXCHAINS], len = nchains, idx = 0, q = 0, off = 0;
    memcpy(state, chains, sizeof(int) * (size_t)nchains);
    for (;;) {
        if (idx >= ntimes) {
            return !len || state[off + len - 1] < NEVER;
        }
        int i = times[idx];
        int deals = (i - q - 1) / 3, spare = (i - q - 1) % 3;
        int start = spare == 0 ? i : latest_ready_start(q, deals, spare, waits);
        if (!start || state[off] >= start) break;
        off++;
        len--;
        q = i;
        idx++;
    }
    int mapped[MAXCHAINS];
    for (int j = 0; j < len; j++) mapped[j] = state[off + j] <= q ? 0 : state[off + j];
    static Pace pace; /* the core runs under the interpreter's lock: one at a time */
    Pace *P = &pace;
    P->times = times;
    P->waits = waits;
    P->ntimes = ntimes;
    P->steps = max_steps;
    P->nfailed = 0;
    memset(P->slot, 0, sizeof(P->slot));
    return pace_go(P, idx, mapped, len);
}

/* bounds._first_dealable */
static int first_dealable(const int *tops, const int *seq, int p, const int *first,
                          const int *on_talon, const int *stock_bases, int nsb) {
    int sizes[N_CARDS][2];
    for (int c = 0; c < N_CARDS; c++) sizes[c][0] = sizes[c][1] = 4;
    int failing = -1;
    for (int m = 0; m < p; m++) {
        int card = seq[m], level = LEVEL[card];
        int *two = sizes[card - 3 * level];
        if (two[0] == level + 1)
            two[0] = level;
        else if (two[1] == level + 1)
            two[1] = level;
        else {
            failing = m;
            break;
        }
    }
    int start = p;
    if (failing >= 0) {
        int leaves = 0;
        for (int m = failing; m < p; m++) {
            int prev = PREV[seq[m]];
            if (!(tops[prev] || on_talon[prev]) && first[prev] > leaves) leaves = first[prev];
        }
        if (leaves >= NEVER) return nsb;
        start = p + leaves;
    }
    /* the cards each pile of a sequence still wants: its top one is base + 3 * need */
    int need[N_CARDS][2];
    for (int c = 0; c < N_CARDS; c++) {
        need[c][0] = sizes[c][0] - 1;
        need[c][1] = sizes[c][1] - 1;
    }
    int last = nsb ? stock_bases[nsb - 1] : -1;
    for (int k = start; k <= last; k++) {
        int c = seq[k], level = LEVEL[c], base = c - 3 * level;
        if (level) {
            for (int j = 0; j < 2; j++)
                if (need[base][j] && base + 3 * need[base][j] == c) need[base][j]--;
        } else if (k >= p && (!need[base][0] || !need[base][1])) {
            for (int j = 0; j < nsb; j++)
                if (stock_bases[j] == k) return j;
        }
    }
    return nsb;
}

static int int_cmp(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* bounds.bases_unmatched: 1, 0, or -1 with an exception set (a grid of more piles
 * than the grid holds). */
static int bases_unmatched(const int *tops, const int *bots, const int *seq, int n, int p,
                           int fill) {
    int first[N_CARDS], second[N_CARDS], on_talon[N_CARDS];
    int stock_bases[MAXN], nsb = 0, talon_bases = 0;
    for (int c = 0; c < N_CARDS; c++) {
        first[c] = second[c] = NEVER;
        on_talon[c] = 0;
    }
    for (int k = p; k < n; k++) {
        int c = seq[k];
        if (first[c] == NEVER)
            first[c] = k - p + 1;
        else
            second[c] = k - p + 1;
        if (!LEVEL[c]) stock_bases[nsb++] = k;
    }
    for (int k = 0; k < p; k++) {
        on_talon[seq[k]]++;
        if (!LEVEL[seq[k]]) talon_bases++;
    }
    int chains[2 * N_CARDS], nchains = 0;
    for (int w = 0; w < N_CARDS; w++) {
        int b = LEVEL[w] ? bots[w] : 0;
        if (!b) continue;
        int v = w - 3, now = tops[v] + on_talon[v];
        chains[nchains++] = now ? 0 : first[v];
        if (b > 1) chains[nchains++] = now > 1 ? 0 : now ? first[v] : second[v];
    }
    if (nchains != talon_bases + nsb) return 1;
    if (talon_bases && !fill) return 1;
    if (nchains > MAXCHAINS) {
        PyErr_SetString(PyExc_ValueError, "more piles than the grid holds");
        return -1;
    }
    qsort(chains, (size_t)nchains, sizeof(int), int_cmp);
    int times[MAXN];
    for (int k = 0; k < nsb; k++) times[k] = stock_bases[k] - p + 1;
    int every = matched(chains, nchains, times, nsb);
    int dealt;
    if (!fill)
        dealt = nsb;
    else if (talon_bases)
        dealt = 0;
    else
        dealt = first_dealable(tops, seq, p, first, on_talon, stock_bases, nsb);
    if (!every && (dealt == nsb || !matched(chains, nchains, times, dealt))) return 1;
    if (!dealt) return 0;
    int waits[MAXN + 1];
    memset(waits, 0, sizeof(waits));
    for (int k = p; k < stock_bases[dealt - 1]; k++) {
        int prev = PREV[seq[k]], t = k - p + 1;
        if (prev >= 0) {
            int got = tops[prev] || on_talon[prev] ? 0 : first[prev];
            waits[t] = got > t ? got : t;
        }
    }
    return fills_keep_pace(chains, nchains, times, dealt, waits, ALIGNMENT_STEPS) == 0;
}

/* Some chain (one suit of one sequence) has a copy of each of its four ranks outside the
 * grid; out: the low bit of each card with a copy outside.  A chain's cards are c, c + 3,
 * c + 6, c + 9 from its base c: 6, 12 and 18 bits above it. */
static inline int any_light(u128 out) {
    return (out & (out >> 6) & (out >> 12) & (out >> 18) & BASE_LOW) != 0;
}

/* light_front in bounds.py (its proof in docs/solver.md): a base second or third in seq
 * that enters only after cards whose entry leaves no chain light never enters. */
static int light_front(const Rules *R, const int *seq, int n, u128 seqcount, int p) {
    if (R->k != 3 || p == 1 || p == 2 || n < 2) return 0;
    u128 left = seqcount - TF(seq[0]);
    if (!any_light(nonzero(left))) return !LEVEL[seq[1]] + (n > 2 && !LEVEL[seq[2]]);
    if (n > 2 && !LEVEL[seq[2]] && !any_light(nonzero(left - TF(seq[1])))) return 1;
    return 0;
}

/* Bounds.lower_bound: the cards of seq that provably never enter.  T: the tops as
 * counters; B: the bottoms as counters (base bottoms are ignored); piles: the
 * occupied cells.  *err is set (with a Python exception) on failure. */
static int lower_bound(const Rules *R, u128 T, u128 B, int piles, const int *seq, int n,
                       u128 seqcount, int p, long long r, int best, int *err) {
    if (!n) return 0;
    u128 tops = nonzero(T);
    u128 bcount = B & NONBASE_BOTH;
    int fixed = !R->unlimited && r >= R->redeals;
    if (!fixed || !p) {
        u128 pending = nonzero(seqcount);
        int no_space = !any_light(pending); /* no space is ever made again */
        int fill_source = !no_space && (p < n || (p > 0 && (R->fill || redeal_left(R, r))));
        u128 reach = tops;
        int live = 0;
        for (;;) {
            u128 grow = pending & (reach << 6) & NONBASE;
            if (grow) {
                reach |= grow;
                pending &= ~grow;
                continue;
            }
            if (!fill_source) break;
            live = count2(bcount & ((reach << 6) * 3));
            if (!live || !pending) break;
            reach |= pending;
            pending = 0;
        }
        u128 ok = (reach << 6) & NONBASE;
        int bound = count2(seqcount & ~(ok * 3)) - live;
        if (!no_space && bound < best) bound = imax(bound, light_front(R, seq, n, seqcount, p));
        if (piles == GRID_SIZE) return bound;
        return imax(bound, count_bound(R, T, B, seq, n, p, 0));
    }
    int fill = R->fill;
    int bottom_lost = fill && p > 0 && talon_bottom_lost(seq, p);
    if (bottom_lost && best <= 1) return 1;
    int counted = count_bound(R, T, B, seq, n, p, 1);
    if (counted >= best) return counted;
    if (bottom_lost) {
        counted = imax(counted, 1);
        if (counted >= best) return counted;
    }
    u128 stock_pending = 0;
    for (int c = p; c < n; c++) stock_pending |= TF(seq[c]);
    u128 above = stock_pending, above_all = stock_pending;
    u128 reach = tops;
    int live = 0, fills = 0, i = p - 1;
    for (;;) {
        int changed = 0;
        u128 grow = stock_pending & (reach << 6) & NONBASE;
        if (grow) {
            reach |= grow;
            stock_pending &= ~grow;
            changed = 1;
        }
        while (i >= 0) {
            u128 bit = TF(seq[i]);
            if (!(fills && fill) && !((reach << 6) & NONBASE & bit)) break;
            reach |= bit;
            i--;
            changed = 1;
        }
        if (!fills && (p < n || fill)) {
            live = count2(bcount & ((reach << 6) * 3));
            if (live) {
                fills = 1;
                reach |= stock_pending;
                stock_pending = 0;
                changed = 1;
            }
        }
        if (!changed) break;
    }
    if (fills) live = count2(bcount & ((reach << 6) * 3));
    u128 ok = (reach << 6) & NONBASE;
    int cut = i;
    int chains = fill ? live : 0;
    int uses = 0;
    for (int j = p - 1; j > cut; j--) {
        int c = seq[j];
        u128 bit = TF(c);
        if (!(ok & bit)) {
            uses++;
            if (uses > chains) {
                cut = j;
                break;
            }
        } else if (!chains && !((tops | above) & (bit >> 6))) {
            cut = j;
            break;
        }
        above |= bit;
    }
    int dead = 0;
    if (cut < 0)
        dead = count2(seqcount & ~(ok * 3));
    else
        for (int j = cut + 1; j < n; j++) dead += !((ok >> (2 * seq[j])) & 1);
    int bound = cut + 1 + imax(0, dead - live);
    int stuck = stack_bound(R, seq, n, tops, bcount, p);
    if (stuck > cut + 1) {
        dead = 0;
        for (int j = stuck; j < n; j++) dead += !((ok >> (2 * seq[j])) & 1);
        bound = imax(bound, stuck + imax(0, dead - live));
    }
    bound = imax(bound, counted);
    if (n - p <= TALON_BOUND_STOCK) bound = imax(bound, talon_bound(R, seq, tops | above_all, bcount, p));
    if (!bound && best <= 1) {
        int tc[N_CARDS], bc[N_CARDS];
        value_counts(T, B, tc, bc);
        int unmatched = bases_unmatched(tc, bc, seq, n, p, R->fill);
        if (unmatched < 0) {
            *err = 1;
            return 0;
        }
        if (unmatched) return 1;
    }
    return bound;
}

/* ------------------------------------------------------------------ search */
typedef struct {
    u128 lo, hi, mask;
    long long r;
    int p;
} OnPath; /* a card-mode position's key, on the line searched */

typedef struct {
    int q, kind, a, b;
} Move;

typedef struct {
    u128 T, B; /* a card-mode grid: its lo and hi (CG) */
    long long r2;
    int q, kind, a;
    int p2, i;
    int b; /* the target pile of a card-mode grid build */
} Child;

typedef struct {
    Rules R;
    int seq[MAXN], orig[MAXN], n;
    u128 seqcount;
    long long nodes, max_nodes, node_cap; /* -1: none */
    int best, floor;
    double deadline;
    TableObject *tt;
    long long tt_entries;
    TableObject *dead;
    long long dead_entries;
    Move path[MAXPATH];
    int plen;
    Move best_path[MAXPATH];
    int blen, best_changed;
    Child *arena;
    size_t arena_len, arena_cap;
    int order_spaces; /* children tried in the order of the spaces they leave (WinHunt) */
    OnPath onpath[MAXPATH]; /* card mode: the keys of the positions on the line searched */
    int olen;
} S;

/* The clock, read now and then by every long loop of this core.  Once every YIELD_EVERY
 * seconds the GIL is let go for a moment: a thread of the program waiting for it (a
 * server answering other requests, a screen drawing itself) takes it then, where a search
 * of several seconds in this thread would otherwise hold it the whole time.  Not more
 * often: a thread that waits for the GIL asks for it only after waiting the interpreter's
 * switch interval (5 ms) with no hand-over, and letting it go and taking it back sooner
 * restarts that wait each time, so that it would never be asked for. */
#define YIELD_EVERY 0.01
static _Thread_local double last_yield = 0.0;

static int read_clock(double *now) {
    PyObject *t = PyObject_CallNoArgs(perf_counter_fn);
    if (!t) return -1;
    *now = PyFloat_AsDouble(t);
    Py_DECREF(t);
    if (*now - last_yield >= YIELD_EVERY) {
        Py_BEGIN_ALLOW_THREADS
        Py_END_ALLOW_THREADS
        last_yield = *now;
    }
    return 0;
}

static int now_past(S *s, int *err) {
    double now;
    if (read_clock(&now) < 0) {
        *err = 1;
        return 0;
    }
    return now > s->deadline;
}

static void note_best(S *s) {
    s->best = s->n;
    memcpy(s->best_path, s->path, sizeof(Move) * (size_t)s->plen);
    s->blen = s->plen;
    s->best_changed = 1;
}

static Child *arena_reserve(S *s, size_t more) {
    if (s->arena_len + more > s->arena_cap) {
        size_t cap = s->arena_cap ? s->arena_cap : 4096;
        while (cap < s->arena_len + more) cap *= 2;
        Child *a = PyMem_Realloc(s->arena, cap * sizeof(Child));
        if (!a) {
            PyErr_NoMemory();
            return NULL;
        }
        s->arena = a;
        s->arena_cap = cap;
    }
    return s->arena + s->arena_len;
}

typedef struct {
    int q;
    long long r;
} Cut;

static int reachable_cuts(const Rules *R, int p, int n, long long r, Cut *out) {
    int m = 0;
    for (int q = p; q < n; q += R->k) out[m++] = (Cut){q, r};
    out[m++] = (Cut){n, r};
    if (n == 0) return m;
    if (p && (R->unlimited || r < R->redeals)) {
        int stop = p % R->k == 0 ? p : n;
        for (int q = 0; q < stop; q += R->k) out[m++] = (Cut){q, r + 1};
    }
    return m;
}

static inline int fill_index(int q, int n, int fill_talon) {
    if (q < n) return q;
    if (fill_talon && q > 0) return q - 1;
    return -1;
}

static inline u128 run_emptiable(u128 T, u128 B) {
    return nonzero(B) & NONBASE & (nonzero(T) << 6);
}

static inline int low_card(u128 bit) {
    uint64_t lo = (uint64_t)bit;
    return lo ? __builtin_ctzll(lo) / 2 : 32 + __builtin_ctzll((uint64_t)(bit >> 64)) / 2;
}

/* --------------------------------------------------------------- card mode */
/* A card-mode grid: the multiset of its piles, each a suit sequence from a bottom b up
 * b + 3h, as 2-bit counters at a field per (b, h): 120 fields, numbered in the order
 * of the piles' codes (b * 48 + top), held in two u128 (lo: fields 0..63). */
#define N_FIELDS 120
#define LOW_ALL ((((u128)0x5555555555555555ULL) << 64) | (u128)0x5555555555555555ULL)
static int FIELD_ID[N_CARDS][4];
static int FIELD_B[N_FIELDS], FIELD_H[N_FIELDS];

typedef struct {
    u128 lo, hi;
} CG;

static inline void cg_add(CG *g, int id, int times) {
    if (id < 64)
        g->lo += (u128)times << (2 * id);
    else
        g->hi += (u128)times << (2 * (id - 64));
}
static inline int cg_count(const CG *g, int id) {
    return id < 64 ? CNT(g->lo, id) : CNT(g->hi, id - 64);
}
static inline int pile_id(int b, int t) { return FIELD_ID[b][(t - b) / 3]; }

static void init_fields(void) {
    int id = 0;
    for (int b = 0; b < N_CARDS; b++)
        for (int h = 0; h < 4; h++) {
            if (h <= 3 - LEVEL[b]) {
                FIELD_ID[b][h] = id;
                FIELD_B[id] = b;
                FIELD_H[id] = h;
                id++;
            } else
                FIELD_ID[b][h] = -1;
        }
}

/* The grid of a tuple of pile codes (any order); -1 on a bad code. */
static int cg_from_tuple(PyObject *tuple, CG *g) {
    g->lo = g->hi = 0;
    Py_ssize_t m = PyTuple_GET_SIZE(tuple);
    if (m > GRID_SIZE) {
        PyErr_SetString(PyExc_ValueError, "more piles than cells");
        return -1;
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        long code = PyLong_AsLong(PyTuple_GET_ITEM(tuple, i));
        if (code == -1 && PyErr_Occurred()) return -1;
        int b = (int)(code / N_CARDS), t = (int)(code % N_CARDS);
        if (code < 0 || code >= N_CARDS * N_CARDS || t < b || (t - b) % 3 || (t - b) / 3 > 3 ||
            FIELD_ID[b][(t - b) / 3] < 0) {
            PyErr_SetString(PyExc_ValueError, "a pile code that is no suit sequence");
            return -1;
        }
        int id = pile_id(b, t);
        if (cg_count(g, id) == 3) {
            PyErr_SetString(PyExc_ValueError, "a pile more than three times");
            return -1;
        }
        cg_add(g, id, 1);
    }
    return 0;
}

static int card_grid_key(PyObject *tuple, u128 *lo, u128 *hi) {
    CG g;
    if (cg_from_tuple(tuple, &g) < 0) return -1;
    *lo = g.lo;
    *hi = g.hi;
    return 0;
}

/* The distinct piles in code order, their counts, and the tops and bottoms as counters. */
typedef struct {
    int id[GRID_SIZE], count[GRID_SIZE], n, piles;
    u128 T, B;
} Piles;

static void cg_piles(const CG *g, Piles *out) {
    out->n = out->piles = 0;
    out->T = out->B = 0;
    for (int half = 0; half < 2; half++) {
        u128 x = half ? g->hi : g->lo;
        int base = half ? 64 : 0;
        u128 nz = (x | (x >> 1)) & LOW_ALL; /* 64 counters here, not 48 */
        while (nz) {
            u128 low = nz & (~nz + 1);
            int id = base + low_card(low);
            int c = half ? CNT(g->hi, id - 64) : CNT(g->lo, id);
            int b = FIELD_B[id], t = b + 3 * FIELD_H[id];
            if (out->n < GRID_SIZE) {
                out->id[out->n] = id;
                out->count[out->n] = c;
                out->n++;
            }
            out->piles += c;
            out->T += (u128)c * TF(t);
            if (LEVEL[b]) out->B += (u128)c * TF(b);
            nz ^= low;
        }
    }
}

static inline int field_top(int id) { return FIELD_B[id] + 3 * FIELD_H[id]; }
static inline int field_code(int id) { return FIELD_B[id] * N_CARDS + field_top(id); }

/* moves.card_children (T of a Child holds the grid's lo, B its hi). */
static int card_children(const int *seq, int n, int fill, const CG *g, int p, long long r,
                         const Cut *cuts, int ncuts, Child *out) {
    Piles P;
    cg_piles(g, &P);
    Child peels[GRID_SIZE * GRID_SIZE];
    int npeels = 0;
    int singles[GRID_SIZE], ns = 0;
    int m = 0;
    for (int u = 0; u < P.n; u++) {
        int id = P.id[u], t = field_top(id), prev = PREV[t];
        if (prev < 0 || !CNT(P.T, prev)) continue;
        if (FIELD_H[id] == 0) {
            singles[ns++] = u;
            continue;
        }
        for (int v = 0; v < P.n; v++) {
            int tid = P.id[v];
            if (field_top(tid) != prev) continue;
            CG g2 = *g;
            cg_add(&g2, id, -1);
            cg_add(&g2, tid, -1);
            cg_add(&g2, id - 1, 1);  /* the same bottom, one card less */
            cg_add(&g2, tid + 1, 1); /* the same bottom, one card more */
            peels[npeels++] = (Child){g2.lo, g2.hi, r, p, PEEL, field_code(id), p, -1,
                                      field_code(tid)};
        }
    }
    for (int ci = 0; ci < ncuts; ci++) {
        int q = cuts[ci].q;
        long long rq = cuts[ci].r;
        if (q > 0) {
            int c = seq[q - 1], prev = PREV[c];
            if (prev >= 0 && CNT(P.T, prev))
                for (int v = 0; v < P.n; v++) {
                    int tid = P.id[v];
                    if (field_top(tid) != prev) continue;
                    CG g2 = *g;
                    cg_add(&g2, tid, -1);
                    cg_add(&g2, tid + 1, 1);
                    out[m++] = (Child){g2.lo, g2.hi, rq, q, TALON, field_code(tid), q - 1, q - 1,
                                       -1};
                }
        }
        if (ns) {
            int i = fill_index(q, n, fill);
            if (i < 0) continue;
            int f = seq[i];
            for (int k = 0; k < ns; k++) {
                int sid = P.id[singles[k]];
                int prev = PREV[field_top(sid)];
                for (int v = 0; v < P.n; v++) {
                    int tid = P.id[v];
                    if (field_top(tid) != prev) continue;
                    CG g2 = *g;
                    cg_add(&g2, sid, -1);
                    cg_add(&g2, tid, -1);
                    cg_add(&g2, tid + 1, 1);
                    cg_add(&g2, FIELD_ID[f][0], 1);
                    out[m++] = (Child){g2.lo, g2.hi, rq, q, EMPTY, field_code(sid), i, i,
                                       field_code(tid)};
                }
            }
        }
    }
    memcpy(out + m, peels, sizeof(Child) * (size_t)npeels);
    return m + npeels;
}


/* moves.run_children into out (room for enough children); returns their number.  The
 * talon builds and the fills of bases come first, then the other fills, each in the
 * order of the cuts. */
static int run_children(const S *s, u128 T, u128 B, const Cut *cuts, int ncuts, Child *out) {
    const int *seq = s->seq;
    int n = s->n;
    int sources[N_CARDS], ns = 0;
    u128 e = run_emptiable(T, B);
    while (e) {
        u128 low = e & (~e + 1);
        sources[ns++] = low_card(low);
        e ^= low;
    }
    int m = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int ci = 0; ci < ncuts; ci++) {
            int q = cuts[ci].q;
            long long rq = cuts[ci].r;
            if (q > 0 && pass == 0) {
                int c = seq[q - 1], prev = PREV[c];
                if (prev >= 0 && CNT(T, prev))
                    out[m++] = (Child){T - TF(prev) + TF(c), B, rq, q, TALON, -1, q - 1, q - 1};
            }
            if (ns) {
                int i = fill_index(q, n, s->R.fill);
                if (i < 0) continue;
                int f = seq[i];
                if ((LEVEL[f] == 0) != (pass == 0)) continue;
                for (int k = 0; k < ns; k++) {
                    int b = sources[k];
                    out[m++] = (Child){T - TF(b - 3) + TF(f), B - TF(b) + TF(f), rq, q, EMPTY, b,
                                       i, i};
                }
            }
        }
    }
    return m;
}

static inline int safe_at(u128 T, u128 B, const int *seq, u128 seqcount, int q) {
    if (!q) return 0;
    int c = seq[q - 1], prev = PREV[c];
    if (prev < 0) return 0;
    int covered = CNT(T, prev);
    return covered == 2 ||
           (covered == 1 && CNT(seqcount, c) == 1 && !CNT(B, c));
}

static int max_children(int ncuts) { return ncuts * (1 + N_CARDS / 2) + 1; }

/* RunSearch._dfs_children (with WinHunt's order when asked). */
static int dfs_children(S *s, u128 T, u128 B, long long r, Cut *cuts, int ncuts, Child *out) {
    int count;
    if (redeal_left(&s->R, r)) {
        count = run_children(s, T, B, cuts, ncuts, out);
    } else {
        int safe = -1;
        for (int ci = 0; ci < ncuts; ci++)
            if (safe_at(T, B, s->seq, s->seqcount, cuts[ci].q)) {
                safe = cuts[ci].q;
                break;
            }
        if (safe < 0) {
            count = run_children(s, T, B, cuts, ncuts, out);
        } else {
            int c = s->seq[safe - 1];
            out[0] = (Child){T - TF(PREV[c]) + TF(c), B, r, safe, TALON, -1, safe - 1, safe - 1};
            int m = 0;
            for (int ci = 0; ci < ncuts; ci++)
                if (cuts[ci].q < safe) cuts[m++] = cuts[ci];
            count = 1 + run_children(s, T, B, cuts, m, out + 1);
        }
    }
    if (s->order_spaces && count > 1) {
        /* a stable sort on the spaces each child leaves to be made, the most first */
        int key[count];
        for (int i = 0; i < count; i++) key[i] = pop128(run_emptiable(out[i].T, out[i].B));
        for (int i = 1; i < count; i++) {
            Child c = out[i];
            int kc = key[i], j = i - 1;
            while (j >= 0 && key[j] < kc) {
                out[j + 1] = out[j];
                key[j + 1] = key[j];
                j--;
            }
            out[j + 1] = c;
            key[j + 1] = kc;
        }
    }
    return count;
}

static inline void key_of(const S *s, int p, int n, long long r, int *kp, long long *kr) {
    if (s->R.unlimited) {
        *kp = (p % s->R.k == 0 || p == n) ? 0 : p;
        *kr = -1;
    } else {
        *kp = p;
        *kr = r;
    }
}

/* Keep a position's value (unless a greater one is kept), the key looked for from where
 * the hint says it was. */
static int store_at(S *s, Hint hint, u128 T, u128 B, u128 mask, long long kr, int kp,
                    int value) {
    TableObject *tt = s->tt;
    if ((long long)tt->len >= s->tt_entries) table_shed(tt);
    int old = table_get_at(tt, &hint, T, B, mask, kr, kp);
    if (old < 0 || value > old) return table_set_at(tt, hint, T, B, mask, kr, kp, value);
    return 0;
}

static inline int take(S *s, int i) {
    int card = s->seq[i];
    int o = s->orig[i];
    memmove(s->seq + i, s->seq + i + 1, sizeof(int) * (size_t)(s->n - i - 1));
    memmove(s->orig + i, s->orig + i + 1, sizeof(int) * (size_t)(s->n - i - 1));
    s->n--;
    s->seqcount -= TF(card);
    return o;
}

static inline void put_back(S *s, int i, int card, int o) {
    memmove(s->seq + i + 1, s->seq + i, sizeof(int) * (size_t)(s->n - i));
    memmove(s->orig + i + 1, s->orig + i, sizeof(int) * (size_t)(s->n - i));
    s->seq[i] = card;
    s->orig[i] = o;
    s->n++;
    s->seqcount += TF(card);
}

/* The table is looked at for each child of a node before any is searched: their slots
 * asked of memory first, all at once, rather than waited for one by one. */
static void prefetch_children(const S *s, size_t base, int count, int n, u128 mask) {
    for (int ci = 0; ci < count; ci++) {
        const Child *ch = &s->arena[base + ci];
        int kp;
        long long kr;
        key_of(s, ch->p2, ch->i >= 0 ? n - 1 : n, ch->r2, &kp, &kr);
        table_prefetch(s->tt, ch->T, ch->B,
                       ch->i >= 0 ? mask | ((u128)1 << s->orig[ch->i]) : mask, kr, kp);
    }
}

#define ERR (-1)
#define TIMEUP (-2)
#define PHASEEND (-3)

static inline int piles_of(u128 T) { return count2(T); }

/* WinSearch._lost: claim a position for the positions proven lost (every position is
 * expanded once, so it is claimed on arrival); 1 when it was there already, 0 when claimed
 * now, ERR.  A full table keeps those nearest the root. */
static int claim_lost(S *s, u128 T, u128 B, u128 mask, long long kr, int kp) {
    Hint hint = NO_HINT;
    if (table_get_at(s->dead, &hint, T, B, mask, kr, kp) >= 0) return 1;
    if ((long long)s->dead->len >= s->dead_entries) table_shed(s->dead);
    return table_set_at(s->dead, hint, T, B, mask, kr, kp, 0) < 0 ? ERR : 0;
}

/* Search._dfs: the value of a position, or ERR, TIMEUP, PHASEEND. */
static int dfs(S *s, u128 T, u128 B, int p, long long r, u128 mask, Hint hint) {
    int err = 0;
    s->nodes++;
    if (((s->nodes & (CLOCK_EVERY - 1)) == 0 && now_past(s, &err)) ||
        (s->max_nodes >= 0 && s->nodes > s->max_nodes))
        return TIMEUP;
    if (err) return ERR;
    if (s->node_cap >= 0 && s->nodes > s->node_cap) return PHASEEND;
    int n = s->n;
    if (n < s->best) note_best(s);
    if (n <= s->floor) return n;
    int kp;
    long long kr;
    key_of(s, p, n, r, &kp, &kr);
    int known = table_get_at(s->tt, &hint, T, B, mask, kr, kp);
    if (known >= 0 && known >= s->best) return known;
    int lb = lower_bound(&s->R, T, B, piles_of(T), s->seq, n, s->seqcount, p, r, s->best, &err);
    if (err) return ERR;
    if (lb >= s->best) {
        if (store_at(s, hint, T, B, mask, kr, kp, lb) < 0) return ERR;
        return lb;
    }
    int value = n;
    Cut cuts[2 * MAXN + 4];
    int ncuts = reachable_cuts(&s->R, p, n, r, cuts);
    if (!arena_reserve(s, (size_t)max_children(ncuts))) return ERR;
    size_t base = s->arena_len;
    int count = dfs_children(s, T, B, r, cuts, ncuts, s->arena + base);
    s->arena_len = base + (size_t)count;
    prefetch_children(s, base, count, n, mask);
    int result = 0;
    for (int ci = 0; ci < count; ci++) {
        Child ch = s->arena[base + ci];
        int i = ch.i;
        int n2 = i >= 0 ? n - 1 : n;
        long long nodes = s->nodes + 1;
        Hint child = NO_HINT;
        if (n2 >= s->best && (nodes & (CLOCK_EVERY - 1)) &&
            (s->max_nodes < 0 || nodes <= s->max_nodes) &&
            (s->node_cap < 0 || nodes <= s->node_cap)) {
            int kp2;
            long long kr2;
            key_of(s, ch.p2, n2, ch.r2, &kp2, &kr2);
            u128 mask2 = i >= 0 ? mask | ((u128)1 << s->orig[i]) : mask;
            int k2 = table_get_at(s->tt, &child, ch.T, ch.B, mask2, kr2, kp2);
            if (k2 >= 0 && k2 >= s->best) {
                s->nodes = nodes;
                if (k2 < value) value = k2;
                continue;
            }
        }
        int card = s->seq[i];
        int o = take(s, i);
        s->path[s->plen++] = (Move){ch.q, ch.kind, ch.a, -1};
        int v = dfs(s, ch.T, ch.B, ch.p2, ch.r2, mask | ((u128)1 << o), child);
        s->plen--;
        put_back(s, i, card, o);
        if (v < 0) {
            result = v;
            break;
        }
        if (v < value) value = v;
        if (s->best <= s->floor) break;
    }
    s->arena_len = base;
    if (result < 0) return result;
    if (store_at(s, hint, T, B, mask, kr, kp, value) < 0) return ERR;
    return value;
}

/* WinSearch._win_cuts */
static int win_cuts(S *s, int p, int n, long long r, Cut *cuts) {
    int ncuts = reachable_cuts(&s->R, p, n, r, cuts);
    int j = p;
    while (j < n && LEVEL[s->seq[j]]) j++;
    if (j == n) return ncuts;
    for (int i = 0; i < p; i++)
        if (!LEVEL[s->seq[i]]) return ncuts;
    if (s->R.fill && !talon_bottom_lost(s->seq, j + 1)) return ncuts;
    int m = 0;
    for (int ci = 0; ci < ncuts; ci++)
        if (cuts[ci].q <= j) cuts[m++] = cuts[ci];
    return m;
}

/* WinSearch._win (run mode, no relaxation at the nodes): 1 won, 0 lost, or an error. */
static int win(S *s, u128 T, u128 B, int p, long long r, u128 mask) {
    int err = 0;
    s->nodes++;
    if (((s->nodes & 1023) == 0 && now_past(s, &err)) ||
        (s->max_nodes >= 0 && s->nodes > s->max_nodes))
        return TIMEUP;
    if (err) return ERR;
    int n = s->n;
    if (!n) {
        s->best = 0;
        memcpy(s->best_path, s->path, sizeof(Move) * (size_t)s->plen);
        s->blen = s->plen;
        s->best_changed = 1;
        return 1;
    }
    int kp;
    long long kr;
    key_of(s, p, n, r, &kp, &kr);
    int seen = claim_lost(s, T, B, mask, kr, kp);
    if (seen) return seen < 0 ? ERR : 0;
    int lb = lower_bound(&s->R, T, B, piles_of(T), s->seq, n, s->seqcount, p, r, s->best, &err);
    if (err) return ERR;
    if (lb >= 1) return 0;
    Cut cuts[2 * MAXN + 4];
    int ncuts = win_cuts(s, p, n, r, cuts);
    if (!arena_reserve(s, (size_t)max_children(ncuts))) return ERR;
    size_t base = s->arena_len;
    int count = dfs_children(s, T, B, r, cuts, ncuts, s->arena + base);
    s->arena_len = base + (size_t)count;
    int won = 0;
    for (int ci = 0; ci < count; ci++) {
        Child ch = s->arena[base + ci];
        int i = ch.i;
        int card = s->seq[i];
        int o = take(s, i);
        s->path[s->plen++] = (Move){ch.q, ch.kind, ch.a, -1};
        won = win(s, ch.T, ch.B, ch.p2, ch.r2, mask | ((u128)1 << o));
        s->plen--;
        put_back(s, i, card, o);
        if (won) break;
    }
    s->arena_len = base;
    return won;
}

static inline int onpath_has(const S *s, u128 lo, u128 hi, u128 mask, long long kr, int kp) {
    for (int j = s->olen - 1; j >= 0; j--) {
        const OnPath *o = &s->onpath[j];
        if (o->lo == lo && o->hi == hi && o->mask == mask && o->r == kr && o->p == kp) return 1;
    }
    return 0;
}

static inline void onpath_push(S *s, u128 lo, u128 hi, u128 mask, long long kr, int kp) {
    s->onpath[s->olen++] = (OnPath){lo, hi, mask, kr, kp};
}

static int card_max_children(int ncuts) { return ncuts * (2 + 2 * GRID_SIZE) + 2 * GRID_SIZE + 1; }

/* Search._dfs of a card-mode search (CYCLES: a line may come back to a position). */
static int card_dfs(S *s, CG g, int p, long long r, u128 mask, Hint hint) {
    int err = 0;
    s->nodes++;
    if (((s->nodes & (CLOCK_EVERY - 1)) == 0 && now_past(s, &err)) ||
        (s->max_nodes >= 0 && s->nodes > s->max_nodes))
        return TIMEUP;
    if (err) return ERR;
    if (s->node_cap >= 0 && s->nodes > s->node_cap) return PHASEEND;
    int n = s->n;
    if (n < s->best) note_best(s);
    if (n <= s->floor) return n;
    int kp;
    long long kr;
    key_of(s, p, n, r, &kp, &kr);
    int known = table_get_at(s->tt, &hint, g.lo, g.hi, mask, kr, kp);
    if (known >= 0 && known >= s->best) return known;
    if (onpath_has(s, g.lo, g.hi, mask, kr, kp)) return s->best;
    Piles P;
    cg_piles(&g, &P);
    int lb = lower_bound(&s->R, P.T, P.B, P.piles, s->seq, n, s->seqcount, p, r, s->best, &err);
    if (err) return ERR;
    if (lb >= s->best) {
        if (store_at(s, hint, g.lo, g.hi, mask, kr, kp, lb) < 0) return ERR;
        return lb;
    }
    if (s->plen >= MAXPATH - 1 || s->olen >= MAXPATH - 1) {
        PyErr_SetString(PyExc_RecursionError, "the card-mode search went too deep");
        return ERR;
    }
    int value = n;
    Cut cuts[2 * MAXN + 4];
    int ncuts = reachable_cuts(&s->R, p, n, r, cuts);
    if (!arena_reserve(s, (size_t)card_max_children(ncuts))) return ERR;
    size_t base = s->arena_len;
    int count = card_children(s->seq, n, s->R.fill, &g, p, r, cuts, ncuts, s->arena + base);
    s->arena_len = base + (size_t)count;
    prefetch_children(s, base, count, n, mask);
    onpath_push(s, g.lo, g.hi, mask, kr, kp);
    int result = 0;
    for (int ci = 0; ci < count; ci++) {
        Child ch = s->arena[base + ci];
        int i = ch.i;
        int n2 = i >= 0 ? n - 1 : n;
        long long nodes = s->nodes + 1;
        Hint child = NO_HINT;
        if (n2 >= s->best && (nodes & (CLOCK_EVERY - 1)) &&
            (s->max_nodes < 0 || nodes <= s->max_nodes) &&
            (s->node_cap < 0 || nodes <= s->node_cap)) {
            int kp2;
            long long kr2;
            key_of(s, ch.p2, n2, ch.r2, &kp2, &kr2);
            u128 mask2 = i >= 0 ? mask | ((u128)1 << s->orig[i]) : mask;
            int k2 = table_get_at(s->tt, &child, ch.T, ch.B, mask2, kr2, kp2);
            if (k2 >= 0 && k2 >= s->best) {
                s->nodes = nodes;
                if (k2 < value) value = k2;
                continue;
            }
        }
        int card = -1, o = -1;
        u128 mask2 = mask;
        if (i >= 0) {
            card = s->seq[i];
            o = take(s, i);
            mask2 = mask | ((u128)1 << o);
        }
        s->path[s->plen++] = (Move){ch.q, ch.kind, ch.a, ch.b};
        int v = card_dfs(s, (CG){ch.T, ch.B}, ch.p2, ch.r2, mask2, child);
        s->plen--;
        if (i >= 0) put_back(s, i, card, o);
        if (v < 0) {
            result = v;
            break;
        }
        if (v < value) value = v;
        if (s->best <= s->floor) break;
    }
    s->olen--;
    s->arena_len = base;
    if (result < 0) return result;
    if (store_at(s, hint, g.lo, g.hi, mask, kr, kp, value) < 0) return ERR;
    return value;
}

/* WinSearch._win of a card-mode search. */
static int card_win(S *s, CG g, int p, long long r, u128 mask) {
    int err = 0;
    s->nodes++;
    if (((s->nodes & 1023) == 0 && now_past(s, &err)) ||
        (s->max_nodes >= 0 && s->nodes > s->max_nodes))
        return TIMEUP;
    if (err) return ERR;
    int n = s->n;
    if (!n) {
        s->best = 0;
        memcpy(s->best_path, s->path, sizeof(Move) * (size_t)s->plen);
        s->blen = s->plen;
        s->best_changed = 1;
        return 1;
    }
    int kp;
    long long kr;
    key_of(s, p, n, r, &kp, &kr);
    int seen = claim_lost(s, g.lo, g.hi, mask, kr, kp);
    if (seen) return seen < 0 ? ERR : 0;
    Piles P;
    cg_piles(&g, &P);
    int lb = lower_bound(&s->R, P.T, P.B, P.piles, s->seq, n, s->seqcount, p, r, s->best, &err);
    if (err) return ERR;
    if (lb >= 1) return 0;
    if (s->plen >= MAXPATH - 1 || s->olen >= MAXPATH - 1) {
        PyErr_SetString(PyExc_RecursionError, "the card-mode search went too deep");
        return ERR;
    }
    Cut cuts[2 * MAXN + 4];
    int ncuts = win_cuts(s, p, n, r, cuts);
    if (!arena_reserve(s, (size_t)card_max_children(ncuts))) return ERR;
    size_t base = s->arena_len;
    int count = card_children(s->seq, n, s->R.fill, &g, p, r, cuts, ncuts, s->arena + base);
    s->arena_len = base + (size_t)count;
    onpath_push(s, g.lo, g.hi, mask, kr, kp);
    int won = 0;
    for (int ci = 0; ci < count; ci++) {
        Child ch = s->arena[base + ci];
        int i = ch.i;
        if (i < 0) {
            int kp2;
            long long kr2;
            key_of(s, ch.p2, n, ch.r2, &kp2, &kr2);
            if (onpath_has(s, ch.T, ch.B, mask, kr2, kp2)) continue;
        }
        int card = -1, o = -1;
        u128 mask2 = mask;
        if (i >= 0) {
            card = s->seq[i];
            o = take(s, i);
            mask2 = mask | ((u128)1 << o);
        }
        s->path[s->plen++] = (Move){ch.q, ch.kind, ch.a, ch.b};
        won = card_win(s, (CG){ch.T, ch.B}, ch.p2, ch.r2, mask2);
        s->plen--;
        if (i >= 0) put_back(s, i, card, o);
        if (won) break;
    }
    s->olen--;
    s->arena_len = base;
    return won;
}

/* --------------------------------------------------- reading a Search object */
static int get_ll(PyObject *obj, const char *name, long long none_value, long long *out) {
    PyObject *v = PyObject_GetAttrString(obj, name);
    if (!v) return -1;
    if (v == Py_None)
        *out = none_value;
    else {
        *out = PyLong_AsLongLong(v);
        if (*out == -1 && PyErr_Occurred()) {
            Py_DECREF(v);
            return -1;
        }
    }
    Py_DECREF(v);
    return 0;
}

static int get_int_array(PyObject *obj, const char *name, int *out, int *len) {
    PyObject *v = PyObject_GetAttrString(obj, name);
    if (!v) return -1;
    if (!PyList_Check(v) || PyList_GET_SIZE(v) >= MAXN) {
        Py_DECREF(v);
        PyErr_Format(PyExc_ValueError, "%s: a list of fewer than %d cards was expected", name,
                     MAXN);
        return -1;
    }
    Py_ssize_t m = PyList_GET_SIZE(v);
    for (Py_ssize_t i = 0; i < m; i++) {
        long x = PyLong_AsLong(PyList_GET_ITEM(v, i));
        if (x == -1 && PyErr_Occurred()) {
            Py_DECREF(v);
            return -1;
        }
        out[i] = (int)x;
    }
    *len = (int)m;
    Py_DECREF(v);
    return 0;
}

static int get_table(PyObject *obj, const char *name, TableObject **out) {
    PyObject *v = PyObject_GetAttrString(obj, name);
    if (!v) return -1;
    if (!PyObject_TypeCheck(v, &TableType)) {
        Py_DECREF(v);
        PyErr_Format(PyExc_TypeError, "%s: a compiled Table was expected", name);
        return -1;
    }
    *out = (TableObject *)v; /* a new reference, released by release() */
    return 0;
}

static int check_cards(const int *v, int n, int limit) {
    for (int i = 0; i < n; i++)
        if (v[i] < 0 || v[i] >= limit) {
            PyErr_SetString(PyExc_ValueError, "a card or index out of range");
            return -1;
        }
    return 0;
}

static int load_rules(PyObject *search, Rules *R) {
    long long k, redeals, unlimited, fill;
    if (get_ll(search, "k", 0, &k) < 0 || get_ll(search, "redeals_max", 0, &redeals) < 0 ||
        get_ll(search, "unlimited", 0, &unlimited) < 0 ||
        get_ll(search, "fill_talon", 0, &fill) < 0)
        return -1;
    if (k < 1) {
        PyErr_SetString(PyExc_ValueError, "draw must be at least 1");
        return -1;
    }
    R->k = (int)k;
    R->redeals = redeals;
    R->unlimited = (int)unlimited;
    R->fill = (int)fill;
    return 0;
}

static int move_from_tuple(PyObject *t, Move *m) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 4) {
        PyErr_SetString(PyExc_TypeError, "a macro move is a 4-tuple");
        return -1;
    }
    int v[4];
    for (int j = 0; j < 4; j++) {
        long x = PyLong_AsLong(PyTuple_GET_ITEM(t, j));
        if (x == -1 && PyErr_Occurred()) return -1;
        v[j] = (int)x;
    }
    *m = (Move){v[0], v[1], v[2], v[3]};
    return 0;
}

static PyObject *move_tuple(const Move *m) {
    return Py_BuildValue("(iiii)", m->q, m->kind, m->a, m->b);
}

static S *load(PyObject *search, int with_dead) {
    S *s = PyMem_Calloc(1, sizeof(S));
    if (!s) {
        PyErr_NoMemory();
        return NULL;
    }
    int m;
    long long best, floor, x;
    if (load_rules(search, &s->R) < 0 || get_int_array(search, "seq", s->seq, &s->n) < 0 ||
        get_int_array(search, "orig", s->orig, &m) < 0 || check_cards(s->seq, s->n, N_CARDS) ||
        check_cards(s->orig, m, MASK_BITS))
        goto fail;
    if (m != s->n) {
        PyErr_SetString(PyExc_ValueError, "seq and orig differ in length");
        goto fail;
    }
    for (int i = 0; i < s->n; i++) s->seqcount += TF(s->seq[i]);
    if (get_ll(search, "nodes", 0, &s->nodes) < 0 ||
        get_ll(search, "max_nodes", -1, &s->max_nodes) < 0 ||
        get_ll(search, "best", 0, &best) < 0 || get_ll(search, "floor", 0, &floor) < 0)
        goto fail;
    s->best = (int)best;
    s->floor = (int)floor;
    s->node_cap = -1;
    if (!with_dead && get_ll(search, "node_cap", -1, &s->node_cap) < 0) goto fail;
    PyObject *d = PyObject_GetAttrString(search, "deadline");
    if (!d) goto fail;
    s->deadline = PyFloat_AsDouble(d);
    Py_DECREF(d);
    if (s->deadline == -1.0 && PyErr_Occurred()) goto fail;
    if (get_table(search, "tt", &s->tt) < 0) goto fail;
    if (get_ll(search, "tt_entries", 0, &s->tt_entries) < 0) goto fail;
    if (with_dead) {
        if (get_table(search, "dead", &s->dead) < 0 ||
            get_ll(search, "dead_entries", 0, &x) < 0)
            goto fail;
        s->dead_entries = x;
    }
    PyObject *path = PyObject_GetAttrString(search, "path");
    if (!path) goto fail;
    if (!PyList_Check(path) || PyList_GET_SIZE(path) >= MAXPATH / 2) {
        Py_DECREF(path);
        PyErr_SetString(PyExc_ValueError, "path: a short list of macro moves was expected");
        goto fail;
    }
    s->plen = (int)PyList_GET_SIZE(path);
    for (int i = 0; i < s->plen; i++)
        if (move_from_tuple(PyList_GET_ITEM(path, i), &s->path[i]) < 0) {
            Py_DECREF(path);
            goto fail;
        }
    Py_DECREF(path);
    return s;
fail:
    Py_XDECREF(s->tt);
    Py_XDECREF(s->dead);
    PyMem_Free(s);
    return NULL;
}

static void release(S *s) {
    Py_XDECREF(s->tt);
    Py_XDECREF(s->dead);
    PyMem_Free(s->arena);
    PyMem_Free(s);
}

/* Write back nodes, best and best_path; 0 or -1. */
static int save(S *s, PyObject *search) {
    PyObject *v = PyLong_FromLongLong(s->nodes);
    if (!v || PyObject_SetAttrString(search, "nodes", v) < 0) {
        Py_XDECREF(v);
        return -1;
    }
    Py_DECREF(v);
    v = PyLong_FromLong(s->best);
    if (!v || PyObject_SetAttrString(search, "best", v) < 0) {
        Py_XDECREF(v);
        return -1;
    }
    Py_DECREF(v);
    if (s->best_changed) {
        PyObject *list = PyList_New(s->blen);
        if (!list) return -1;
        for (int i = 0; i < s->blen; i++) {
            PyObject *t = move_tuple(&s->best_path[i]);
            if (!t) {
                Py_DECREF(list);
                return -1;
            }
            PyList_SET_ITEM(list, i, t);
        }
        int rc = PyObject_SetAttrString(search, "best_path", list);
        Py_DECREF(list);
        if (rc < 0) return -1;
    }
    return 0;
}

static PyObject *finish(S *s, PyObject *search, int rc) {
    int saved = save(s, search);
    release(s);
    if (rc == ERR || saved < 0) return NULL;
    if (rc == TIMEUP) {
        PyErr_SetNone(TimeUpError);
        return NULL;
    }
    if (rc == PHASEEND) {
        PyErr_SetNone(PhaseEndError);
        return NULL;
    }
    return PyLong_FromLong(rc);
}

/* A position's grid (a run-mode int, or a card-mode tuple: *card set) and the rest. */
static int parse_position(PyObject *args, PyObject **search, u128 *T, u128 *B, int *p,
                          long long *r, u128 *mask, int *card) {
    PyObject *g, *m;
    if (!PyArg_ParseTuple(args, "OOiLO", search, &g, p, r, &m)) return -1;
    *card = PyTuple_Check(g);
    if (*card ? card_grid_key(g, T, B) < 0 : grid_from_int(g, T, B) < 0) return -1;
    if (mask_from_int(m, mask) < 0) return -1;
    return 0;
}

static PyObject *py_dfs(PyObject *self, PyObject *args) {
    PyObject *search;
    u128 T, B, mask;
    int p;
    long long r, order;
    int card;
    if (parse_position(args, &search, &T, &B, &p, &r, &mask, &card) < 0) return NULL;
    S *s = load(search, 0);
    if (!s) return NULL;
    if (p < 0 || p > s->n) {
        release(s);
        PyErr_SetString(PyExc_ValueError, "the cut is out of range");
        return NULL;
    }
    if (get_ll(search, "COMPILED_ORDER", 0, &order) < 0) {
        release(s);
        return NULL;
    }
    s->order_spaces = order == 1;
    int rc = card ? card_dfs(s, (CG){T, B}, p, r, mask, NO_HINT) : dfs(s, T, B, p, r, mask, NO_HINT);
    return finish(s, search, rc);
}

static PyObject *py_win(PyObject *self, PyObject *args) {
    PyObject *search;
    u128 T, B, mask;
    int p;
    long long r, order;
    int card;
    if (parse_position(args, &search, &T, &B, &p, &r, &mask, &card) < 0) return NULL;
    S *s = load(search, 1);
    if (!s) return NULL;
    if (p < 0 || p > s->n) {
        release(s);
        PyErr_SetString(PyExc_ValueError, "the cut is out of range");
        return NULL;
    }
    if (get_ll(search, "COMPILED_ORDER", 0, &order) < 0) {
        release(s);
        return NULL;
    }
    s->order_spaces = order == 1;
    int rc = card ? card_win(s, (CG){T, B}, p, r, mask) : win(s, T, B, p, r, mask);
    if (rc == 0 || rc == 1) {
        int saved = save(s, search);
        release(s);
        if (saved < 0) return NULL;
        return PyBool_FromLong(rc);
    }
    return finish(s, search, rc);
}

/* lower_bound(grid, seq, p, r, best, fill, unlimited, redeals, draw=3): a run grid (int)
 * or a card grid (tuple of pile codes bottom * 48 + top). */
static PyObject *py_lower_bound(PyObject *self, PyObject *args) {
    PyObject *g, *seqo;
    int p, best, fill, unlimited, draw = 3;
    long long r, redeals;
    if (!PyArg_ParseTuple(args, "OOiLiiiL|i", &g, &seqo, &p, &r, &best, &fill, &unlimited,
                          &redeals, &draw))
        return NULL;
    u128 T = 0, B = 0;
    int piles;
    if (PyTuple_Check(g)) {
        piles = (int)PyTuple_GET_SIZE(g);
        for (int i = 0; i < piles; i++) {
            long code = PyLong_AsLong(PyTuple_GET_ITEM(g, i));
            if (code == -1 && PyErr_Occurred()) return NULL;
            if (code < 0 || code >= N_CARDS * N_CARDS) {
                PyErr_SetString(PyExc_ValueError, "a pile code out of range");
                return NULL;
            }
            int top = (int)(code % N_CARDS), bottom = (int)(code / N_CARDS);
            T += TF(top);
            if (LEVEL[bottom]) B += TF(bottom);
        }
    } else {
        if (grid_from_int(g, &T, &B) < 0) return NULL;
        piles = count2(T);
    }
    if (!PyList_Check(seqo) || PyList_GET_SIZE(seqo) >= MAXN) {
        PyErr_SetString(PyExc_ValueError, "seq: a list of cards was expected");
        return NULL;
    }
    int seq[MAXN];
    int n = (int)PyList_GET_SIZE(seqo);
    u128 seqcount = 0;
    for (int i = 0; i < n; i++) {
        long c = PyLong_AsLong(PyList_GET_ITEM(seqo, i));
        if (c == -1 && PyErr_Occurred()) return NULL;
        if (c < 0 || c >= N_CARDS) {
            PyErr_SetString(PyExc_ValueError, "a card out of range");
            return NULL;
        }
        seq[i] = (int)c;
        seqcount += TF(c);
    }
    if (p < 0 || p > n) {
        PyErr_SetString(PyExc_ValueError, "the cut is out of range");
        return NULL;
    }
    Rules R = {fill, unlimited, redeals < 0 ? 0 : redeals, draw};
    int err = 0;
    int lb = lower_bound(&R, T, B, piles, seq, n, seqcount, p, r, best, &err);
    if (err) return NULL;
    return PyLong_FromLong(lb);
}

/* Cards (or counts) from a list of ints in [0, limit); the list's length, or -1. */
static int int_list_in(PyObject *list, const char *what, int *out, int most, int limit) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) > most) {
        PyErr_Format(PyExc_ValueError, "%s: a list of at most %d ints was expected", what, most);
        return -1;
    }
    int n = (int)PyList_GET_SIZE(list);
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(list, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || v >= limit) {
            PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", what, v);
            return -1;
        }
        out[i] = (int)v;
    }
    return n;
}

static PyObject *py_bases_unmatched(PyObject *self, PyObject *args) {
    PyObject *topso, *botso, *seqo;
    int p, fill;
    if (!PyArg_ParseTuple(args, "OOOip", &topso, &botso, &seqo, &p, &fill)) return NULL;
    int tops[N_CARDS], bots[N_CARDS], seq[MAXN];
    if (int_list_in(topso, "tops", tops, N_CARDS, 3) != N_CARDS ||
        int_list_in(botso, "bots", bots, N_CARDS, 3) != N_CARDS) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a count per card was expected");
        return NULL;
    }
    int n = int_list_in(seqo, "seq", seq, MAXN - 1, N_CARDS);
    if (n < 0) return NULL;
    if (p < 0 || p > n) {
        PyErr_SetString(PyExc_ValueError, "the cut is out of range");
        return NULL;
    }
    int got = bases_unmatched(tops, bots, seq, n, p, fill);
    if (got < 0) return NULL;
    return PyBool_FromLong(got);
}

static PyObject *py_configure(PyObject *self, PyObject *args) {
    PyObject *timeup, *phaseend, *clock;
    if (!PyArg_ParseTuple(args, "OOO", &timeup, &phaseend, &clock)) return NULL;
    Py_XSETREF(TimeUpError, Py_NewRef(timeup));
    Py_XSETREF(PhaseEndError, Py_NewRef(phaseend));
    Py_XSETREF(perf_counter_fn, Py_NewRef(clock));
    Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- playouts */
#define KEY_CLASS_SHIFT 10
#define TIE_MAX ((1 << KEY_CLASS_SHIFT) - 1)
#define REJECTED (1 << 30)
#define PLAYOUT_MAX_STEPS 400

typedef struct {
    int key;
    Child child; /* its grid worked out at once: the same as run_entered's */
} Cand;

/* playouts.run_candidates */
static int run_candidates(const S *s, u128 T, u128 B, const Cut *cuts, int ncuts, Cand *out) {
    const int *seq = s->seq;
    int n = s->n, unlimited = s->R.unlimited;
    u128 tops = nonzero(T);
    u128 e = nonzero(B) & NONBASE & (tops << 6);
    int src_b[N_CARDS], src_last[N_CARDS], src_nb[N_CARDS], ns = 0;
    while (e) {
        u128 low = e & (~e + 1);
        int b = low_card(low);
        src_b[ns] = b;
        src_last[ns] = CNT(T, b - 3) == 1;
        src_nb[ns] = CNT(B, b);
        ns++;
        e ^= low;
    }
    int m = 0;
    for (int ci = 0; ci < ncuts; ci++) {
        int q = cuts[ci].q;
        long long rq = cuts[ci].r;
        int tie = unlimited ? 0 : imin(ci, TIE_MAX);
        if (q > 0) {
            int c = seq[q - 1], prev = PREV[c];
            if (prev >= 0 && CNT(T, prev)) {
                int key = 0;
                if (unlimited && CNT(T, prev) == 1 && CNT(B, c)) key = 3;
                out[m++] = (Cand){key << KEY_CLASS_SHIFT | tie,
                                  {T - TF(prev) + TF(c), B, rq, q, TALON, -1, q - 1, q - 1}};
            }
        }
        if (ns) {
            int i = fill_index(q, n, s->R.fill);
            if (i < 0) continue;
            int f = seq[i];
            if (!unlimited) {
                int key = (LEVEL[f] ? 1 : 0) << KEY_CLASS_SHIFT | tie;
                for (int k = 0; k < ns; k++) {
                    int b = src_b[k];
                    out[m++] = (Cand){key, {T - TF(b - 3) + TF(f), B - TF(b) + TF(f), rq, q,
                                            EMPTY, b, i, i}};
                }
                continue;
            }
            int base = !LEVEL[f], pf = PREV[f];
            int tpf = pf >= 0 ? CNT(T, pf) : 0;
            for (int k = 0; k < ns; k++) {
                int b = src_b[k], key;
                if (base)
                    key = 1;
                else if (tpf - (pf == b - 3) > 0)
                    key = 2;
                else
                    key = 4;
                if (src_last[k] && src_nb[k] - 1 + (f == b) > 0) key += 3;
                out[m++] = (Cand){key << KEY_CLASS_SHIFT,
                                  {T - TF(b - 3) + TF(f), B - TF(b) + TF(f), rq, q, EMPTY, b, i, i}};
            }
        }
    }
    return m;
}

static int rng_random_below(PyObject *rng, double *out) {
    PyObject *v = PyObject_CallMethod(rng, "random", NULL);
    if (!v) return -1;
    *out = PyFloat_AsDouble(v);
    Py_DECREF(v);
    return (*out == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

/* rng.randrange(n) for n > 0, as random.Random draws it: getrandbits of n's bit length
 * until below n (the same draws, without the Python frames). */
static int rng_randrange(PyObject *rng, int n, int *out) {
    int k = 0;
    while ((n >> k) > 0) k++;
    for (;;) {
        PyObject *v = PyObject_CallMethod(rng, "getrandbits", "i", k);
        if (!v) return -1;
        long x = PyLong_AsLong(v);
        Py_DECREF(v);
        if (x == -1 && PyErr_Occurred()) return -1;
        if (x < n) {
            *out = (int)x;
            return 0;
        }
    }
}

/* PlayoutSearch._probe; the cards taken are put back before it returns. */
static int probe(S *s, PyObject *rng, u128 T0, u128 B0, int p0, long long r0, u128 mask0,
                 long long rollouts, long long stop) {
    Cut cuts[2 * MAXN + 4];
    size_t room = (size_t)max_children(2 * MAXN + 4);
    Cand *cands = PyMem_Malloc(room * sizeof(Cand));
    int *keys = PyMem_Malloc(room * sizeof(int));
    int *pool = PyMem_Malloc(room * sizeof(int));
    int taken_i[MAXPATH], taken_card[MAXPATH], taken_o[MAXPATH];
    int rc = 0;
    if (!cands || !keys || !pool) {
        PyErr_NoMemory();
        rc = ERR;
        goto done;
    }
    int plen0 = s->plen;
    for (long long it = 0; it < rollouts; it++) {
        u128 T = T0, B = B0, mask = mask0;
        int p = p0;
        long long r = r0;
        int steps = 0;
        for (;;) {
            s->nodes++;
            int n = s->n;
            if (n < s->best) {
                note_best(s);
                if (n <= s->floor) break;
            }
            int ncuts = reachable_cuts(&s->R, p, n, r, cuts);
            int nc = run_candidates(s, T, B, cuts, ncuts, cands);
            if (!nc || steps > PLAYOUT_MAX_STEPS || s->plen >= MAXPATH - 1) break;
            for (int j = 0; j < nc; j++) keys[j] = cands[j].key;
            int chosen = -1;
            for (;;) {
                int low = keys[0];
                for (int j = 1; j < nc; j++)
                    if (keys[j] < low) low = keys[j];
                if (low >= REJECTED) break;
                int np = 0;
                double x = 1.0;
                if (it && rng_random_below(rng, &x) < 0) {
                    rc = ERR;
                    goto unwind;
                }
                if (it && x < 0.25) {
                    int wide = (low >> KEY_CLASS_SHIFT) + 2;
                    for (int j = 0; j < nc; j++)
                        if ((keys[j] >> KEY_CLASS_SHIFT) <= wide) pool[np++] = j;
                } else {
                    for (int j = 0; j < nc; j++)
                        if (keys[j] == low) pool[np++] = j;
                }
                int pick = 0;
                if (it && rng_randrange(rng, np, &pick) < 0) {
                    rc = ERR;
                    goto unwind;
                }
                int j = pool[pick];
                keys[j] = REJECTED;
                Child ch = cands[j].child;
                int idx = ch.i;
                int card = s->seq[idx];
                int o = take(s, idx);
                u128 mask2 = mask | ((u128)1 << o);
                int kp;
                long long kr;
                key_of(s, ch.p2, s->n, ch.r2, &kp, &kr);
                int known = table_get(s->tt, ch.T, ch.B, mask2, kr, kp);
                int err = 0;
                if (known < 0 || known < s->best) {
                    int lb = lower_bound(&s->R, ch.T, ch.B, piles_of(ch.T), s->seq, s->n,
                                         s->seqcount, ch.p2, ch.r2, s->best, &err);
                    if (err) {
                        put_back(s, idx, card, o);
                        rc = ERR;
                        goto unwind;
                    }
                    if (lb < s->best) {
                        int d = s->plen;
                        taken_i[d] = idx;
                        taken_card[d] = card;
                        taken_o[d] = o;
                        s->path[s->plen++] = (Move){ch.q, ch.kind, ch.a, -1};
                        T = ch.T;
                        B = ch.B;
                        p = ch.p2;
                        r = ch.r2;
                        mask = mask2;
                        chosen = j;
                        break;
                    }
                }
                put_back(s, idx, card, o);
            }
            if (chosen < 0) break;
            steps++;
        }
    unwind:
        while (s->plen > plen0) {
            int d = --s->plen;
            put_back(s, taken_i[d], taken_card[d], taken_o[d]);
        }
        if (rc) break;
        if (s->best <= s->floor) break;
        int err = 0;
        if (now_past(s, &err) || (s->max_nodes >= 0 && s->nodes > s->max_nodes)) break;
        if (err) {
            rc = ERR;
            break;
        }
        if (stop >= 0 && s->nodes >= stop) break;
    }
done:
    PyMem_Free(cands);
    PyMem_Free(keys);
    PyMem_Free(pool);
    return rc;
}

static PyObject *py_probe(PyObject *self, PyObject *args) {
    PyObject *search, *rng, *g, *m, *budget;
    int p;
    long long r, rollouts;
    u128 T, B, mask;
    if (!PyArg_ParseTuple(args, "OOOiLOO", &search, &rng, &g, &p, &r, &m, &budget)) return NULL;
    if (grid_from_int(g, &T, &B) < 0 || mask_from_int(m, &mask) < 0) return NULL;
    S *s = load(search, 0);
    if (!s) return NULL;
    long long stop = -1;
    if (budget != Py_None) {
        long long b = PyLong_AsLongLong(budget);
        if (b == -1 && PyErr_Occurred()) {
            release(s);
            return NULL;
        }
        stop = s->nodes + b;
    }
    if (get_ll(search, "rollouts", 0, &rollouts) < 0) {
        release(s);
        return NULL;
    }
    if (p < 0 || p > s->n) {
        release(s);
        PyErr_SetString(PyExc_ValueError, "the cut is out of range");
        return NULL;
    }
    int rc = probe(s, rng, T, B, p, r, mask, rollouts, stop);
    int saved = save(s, search);
    release(s);
    if (rc || saved < 0) return NULL;
    Py_RETURN_NONE;
}

/* -------------------------------------------------------------------- beam */
#define BEAM_CLOCK_EVERY 256

typedef struct {
    int parent; /* -1: the beam's root */
    Move mv;
} PathNode;

typedef struct {
    u128 T, B;
    int talon;      /* offset of the talon in the layer's card pool */
    int tlen;
    int path;       /* a PathNode index, -1 for the empty path */
    int fill_start; /* the stock fills of the state (the layer's fills), once expanded */
    int fill_count;
    int dominated;
} BState;

typedef struct {
    u128 T, B;
    Move mv;
} BFill;

typedef struct {
    BState *states;
    int len, cap;
    int *index; /* open addressing on (T, B, talon): state indices, -1 empty */
    int icap;
    unsigned char *cards;
    int clen, ccap;
    BFill *fills;
    int flen, fcap;
} Layer;

typedef struct {
    PathNode *nodes;
    int len, cap;
} Paths;

static int grow(void **buf, int *cap, int need, size_t size) {
    if (need <= *cap) return 0;
    int cap2 = *cap ? *cap : 256;
    while (cap2 < need) cap2 *= 2;
    void *b = PyMem_Realloc(*buf, (size_t)cap2 * size);
    if (!b) {
        PyErr_NoMemory();
        return -1;
    }
    *buf = b;
    *cap = cap2;
    return 0;
}

static int path_add(Paths *ps, int parent, Move mv) {
    if (grow((void **)&ps->nodes, &ps->cap, ps->len + 1, sizeof(PathNode)) < 0) return -2;
    ps->nodes[ps->len] = (PathNode){parent, mv};
    return ps->len++;
}

static uint64_t state_hash(u128 T, u128 B, const unsigned char *talon, int tlen) {
    uint64_t h = key_hash(T, B, (u128)tlen << 8);
    for (int i = 0; i < tlen; i++) h = (h ^ talon[i]) * 0x100000001b3ULL;
    return mix64(h);
}

static void layer_free(Layer *L) {
    PyMem_Free(L->states);
    PyMem_Free(L->index);
    PyMem_Free(L->cards);
    PyMem_Free(L->fills);
    memset(L, 0, sizeof *L);
}

static int layer_reindex(Layer *L, int icap) {
    int *index = PyMem_Malloc((size_t)icap * sizeof(int));
    if (!index) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < icap; i++) index[i] = -1;
    for (int j = 0; j < L->len; j++) {
        BState *st = &L->states[j];
        size_t h = state_hash(st->T, st->B, L->cards + st->talon, st->tlen) & (size_t)(icap - 1);
        while (index[h] >= 0) h = (h + 1) & (size_t)(icap - 1);
        index[h] = j;
    }
    PyMem_Free(L->index);
    L->index = index;
    L->icap = icap;
    return 0;
}

/* The state (T, B, talon) of the layer: its index, added with path when new
 * (*added set); -1 on failure. */
static int layer_setdefault(Layer *L, u128 T, u128 B, const unsigned char *talon, int tlen,
                            int path, int *added) {
    if (2 * (L->len + 1) > L->icap && layer_reindex(L, L->icap ? 2 * L->icap : 256) < 0)
        return -1;
    size_t h = state_hash(T, B, talon, tlen) & (size_t)(L->icap - 1);
    for (;;) {
        int j = L->index[h];
        if (j < 0) break;
        BState *st = &L->states[j];
        if (st->T == T && st->B == B && st->tlen == tlen &&
            !memcmp(L->cards + st->talon, talon, (size_t)tlen)) {
            *added = 0;
            return j;
        }
        h = (h + 1) & (size_t)(L->icap - 1);
    }
    if (grow((void **)&L->states, &L->cap, L->len + 1, sizeof(BState)) < 0 ||
        grow((void **)&L->cards, &L->ccap, L->clen + tlen + 1, 1) < 0)
        return -1;
    memcpy(L->cards + L->clen, talon, (size_t)tlen);
    L->states[L->len] = (BState){T, B, L->clen, tlen, path, 0, 0, 0};
    L->clen += tlen;
    L->index[h] = L->len;
    *added = 1;
    return L->len++;
}

typedef struct {
    int key, lb, idx;
} Ranked;

static int ranked_cmp(const void *a, const void *b) {
    const Ranked *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (x->lb != y->lb) return x->lb < y->lb ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void note_best_path(S *s, const Paths *ps, int path, int left) {
    s->best = left;
    int len = 0;
    for (int q = path; q >= 0; q = ps->nodes[q].parent) len++;
    if (len > MAXPATH) len = MAXPATH; /* never: a pass has fewer moves than cards */
    int j = len;
    for (int q = path; q >= 0 && j > 0; q = ps->nodes[q].parent) s->best_path[--j] = ps->nodes[q].mv;
    s->blen = len;
    s->best_changed = 1;
}

/* PlayoutSearch._beam for run-mode grids (no redeal left). */
static int beam(S *s, u128 T0, u128 B0, int p0, long long r, long long width, int card) {
    int k = s->R.k;
    int n_stock = s->n - p0;
    const int *stock = s->seq + p0;
    Layer *layers = PyMem_Calloc((size_t)n_stock + 1, sizeof(Layer));
    Paths ps = {NULL, 0, 0};
    int *work = NULL, wcap = 0;
    Ranked *ranked = NULL;
    int rcap = 0;
    int rc = 0;
    if (!layers) {
        PyErr_NoMemory();
        return ERR;
    }
    unsigned char talon0[MAXN];
    for (int i = 0; i < p0; i++) talon0[i] = (unsigned char)s->seq[i];
    int added;
    if (layer_setdefault(&layers[0], T0, B0, talon0, p0, -1, &added) < 0) {
        rc = ERR;
        goto done;
    }
    for (int st = 0; st <= n_stock; st++) {
        Layer *L = &layers[st];
        if (!L->len) continue;
        const int *rest = stock + st;
        int nrest = n_stock - st;
        u128 rest_count = 0;
        for (int i = 0; i < nrest; i++) rest_count += TF(rest[i]);
        int seq[MAXN];
        unsigned char tal[MAXN];
        /* close the layer under the moves that consume no stock card */
        int wlen = 0;
        if (grow((void **)&work, &wcap, L->len, sizeof(int)) < 0) {
            rc = ERR;
            goto done;
        }
        for (int j = 0; j < L->len; j++) work[wlen++] = j;
        while (wlen) {
            int j = work[--wlen];
            BState cur = L->states[j];
            int p = cur.tlen, n = p + nrest;
            memcpy(tal, L->cards + cur.talon, (size_t)p);
            u128 seqcount = rest_count;
            for (int i = 0; i < p; i++) {
                seq[i] = tal[i];
                seqcount += TF(tal[i]);
            }
            memcpy(seq + p, rest, sizeof(int) * (size_t)nrest);
            int fill_start = L->flen;
            /* the children at the cut p: the talon build, then the fills (and in card
             * mode the other grid builds) */
            Child kids[2 * GRID_SIZE * 2 + 4];
            int nk = 0, safe = 0;
            if (card) {
                Cut here = {p, r};
                CG g = {cur.T, cur.B};
                nk = card_children(seq, n, s->R.fill, &g, p, r, &here, 1, kids);
            } else if (p && safe_at(cur.T, cur.B, seq, seqcount, p)) {
                safe = 1;
                int c = seq[p - 1];
                kids[nk++] = (Child){cur.T - TF(PREV[c]) + TF(c), cur.B, r, p, TALON, -1, p - 1,
                                     p - 1, -1};
            } else {
                if (p > 0) {
                    int c = seq[p - 1], prev = PREV[c];
                    if (prev >= 0 && CNT(cur.T, prev))
                        kids[nk++] = (Child){cur.T - TF(prev) + TF(c), cur.B, r, p, TALON, -1,
                                             p - 1, p - 1, -1};
                }
                int i = fill_index(p, n, s->R.fill);
                u128 e = run_emptiable(cur.T, cur.B);
                if (i >= 0) {
                    int f = seq[i];
                    while (e) {
                        u128 low = e & (~e + 1);
                        int b = low_card(low);
                        kids[nk++] = (Child){cur.T - TF(b - 3) + TF(f), cur.B - TF(b) + TF(f), r, p,
                                             EMPTY, b, i, i, -1};
                        e ^= low;
                    }
                }
            }
            L->states[j].dominated = safe;
            for (int ci = 0; ci < nk; ci++) {
                Child *ch = &kids[ci];
                Move mv = {ch->q, ch->kind, ch->a, ch->b};
                if (ch->i >= p) {
                    if (grow((void **)&L->fills, &L->fcap, L->flen + 1, sizeof(BFill)) < 0) {
                        rc = ERR;
                        goto done;
                    }
                    L->fills[L->flen++] = (BFill){ch->T, ch->B, mv};
                    continue;
                }
                /* a talon card entered (the talon without it), or none (card mode) */
                unsigned char t2[MAXN];
                int tlen2 = p;
                if (ch->i >= 0) {
                    memcpy(t2, tal, (size_t)ch->i);
                    memcpy(t2 + ch->i, tal + ch->i + 1, (size_t)(p - ch->i - 1));
                    tlen2 = p - 1;
                } else
                    memcpy(t2, tal, (size_t)p);
                int path = L->states[j].path;
                /* the path is made only when the child is new */
                int idx = layer_setdefault(L, ch->T, ch->B, t2, tlen2, -3, &added);
                if (idx < 0) {
                    rc = ERR;
                    goto done;
                }
                if (added) {
                    int node = path_add(&ps, path, mv);
                    if (node < -1) {
                        rc = ERR;
                        goto done;
                    }
                    L->states[idx].path = node;
                    if (grow((void **)&work, &wcap, wlen + 1, sizeof(int)) < 0) {
                        rc = ERR;
                        goto done;
                    }
                    work[wlen++] = idx;
                }
            }
            L->states[j].fill_start = fill_start;
            L->states[j].fill_count = L->flen - fill_start;
        }
        /* rank the layer's states */
        int nr = 0;
        if (grow((void **)&ranked, &rcap, L->len, sizeof(Ranked)) < 0) {
            rc = ERR;
            goto done;
        }
        for (int j = 0; j < L->len; j++) {
            BState *cur = &L->states[j];
            if (cur->dominated) continue;
            s->nodes++;
            if ((s->nodes & (BEAM_CLOCK_EVERY - 1)) == 0) {
                int err = 0;
                if (now_past(s, &err) || (s->max_nodes >= 0 && s->nodes > s->max_nodes)) {
                    rc = TIMEUP;
                    goto done;
                }
                if (err) {
                    rc = ERR;
                    goto done;
                }
            }
            int p = cur->tlen;
            int left = p + nrest;
            if (left < s->best) note_best_path(s, &ps, cur->path, left);
            u128 seqcount = rest_count;
            for (int i = 0; i < p; i++) {
                seq[i] = L->cards[cur->talon + i];
                seqcount += TF(seq[i]);
            }
            memcpy(seq + p, rest, sizeof(int) * (size_t)nrest);
            int err = 0;
            u128 tops = cur->T, bots = cur->B;
            int piles = piles_of(cur->T);
            if (card) {
                Piles P;
                CG g = {cur->T, cur->B};
                cg_piles(&g, &P);
                tops = P.T;
                bots = P.B;
                piles = P.piles;
            }
            int lb = lower_bound(&s->R, tops, bots, piles, seq, left, seqcount, p, r, s->best,
                                 &err);
            if (err) {
                rc = ERR;
                goto done;
            }
            if (lb < s->best) ranked[nr++] = (Ranked){lb + p, lb, j};
        }
        if (!nrest) break;
        qsort(ranked, (size_t)nr, sizeof(Ranked), ranked_cmp);
        int dealt = nrest < k ? nrest : k;
        long long top = width < nr ? width : nr;
        for (long long x = 0; x < top; x++) {
            BState cur = L->states[ranked[x].idx];
            const unsigned char *ctal = L->cards + cur.talon;
            for (int f = 0; f < cur.fill_count; f++) {
                BFill fl = L->fills[cur.fill_start + f];
                int idx = layer_setdefault(&layers[st + 1], fl.T, fl.B, ctal, cur.tlen, -3, &added);
                if (idx < 0) {
                    rc = ERR;
                    goto done;
                }
                if (added) {
                    int node = path_add(&ps, cur.path, fl.mv);
                    if (node < -1) {
                        rc = ERR;
                        goto done;
                    }
                    layers[st + 1].states[idx].path = node;
                }
            }
            unsigned char t2[MAXN];
            memcpy(t2, ctal, (size_t)cur.tlen);
            for (int d = 0; d < dealt; d++) t2[cur.tlen + d] = (unsigned char)rest[d];
            if (layer_setdefault(&layers[st + dealt], cur.T, cur.B, t2, cur.tlen + dealt, cur.path,
                                 &added) < 0) {
                rc = ERR;
                goto done;
            }
        }
        layer_free(L);
    }
done:
    for (int st = 0; st <= n_stock; st++) layer_free(&layers[st]);
    PyMem_Free(layers);
    PyMem_Free(ps.nodes);
    PyMem_Free(work);
    PyMem_Free(ranked);
    return rc;
}

static PyObject *py_beam(PyObject *self, PyObject *args) {
    PyObject *search, *g;
    int p;
    long long r, width;
    u128 T, B;
    if (!PyArg_ParseTuple(args, "OOiLL", &search, &g, &p, &r, &width)) return NULL;
    int card = PyTuple_Check(g);
    if (card ? card_grid_key(g, &T, &B) < 0 : grid_from_int(g, &T, &B) < 0) return NULL;
    S *s = load(search, 0);
    if (!s) return NULL;
    if (p < 0 || p > s->n || redeal_left(&s->R, r)) {
        release(s);
        PyErr_SetString(PyExc_ValueError, "the beam needs a cut in range and no redeal left");
        return NULL;
    }
    int rc = beam(s, T, B, p, r, width, card);
    if (rc == 0) {
        int saved = save(s, search);
        release(s);
        if (saved < 0) return NULL;
        Py_RETURN_NONE;
    }
    return finish(s, search, rc);
}

/* ------------------------------------------------------ the relaxation */
/* winnable.Relaxation._search, with its set of positions proven lost: 1 won, 0 lost,
 * TIMEUP, or ERR with an exception set. */
typedef struct {
    uint64_t hash, tops;
    u128 waiting;
    int i, live, tlen;
    int at; /* the talon's cards in the byte store */
} RKey;

typedef struct {
    const int *stock;
    int nstock, draw, fill;
    long long nodes, max_nodes; /* -1: none */
    double deadline;
    RKey *keys;
    int len, cap;
    unsigned char *bytes;
    int blen, bcap;
    size_t *slots; /* an index into keys + 1, or 0 */
    size_t nslots;
} Relax;

static uint64_t rkey_hash(int i, const unsigned char *t, int tlen, uint64_t tops, int live,
                          u128 waiting) {
    uint64_t h = mix64((uint64_t)i * 0x9E3779B97F4A7C15ULL ^ tops);
    h = mix64(h ^ (uint64_t)waiting ^ ((uint64_t)(waiting >> 64) << 1) ^ (uint64_t)live << 56);
    for (int k = 0; k < tlen; k++) h = h * 0x100000001B3ULL ^ t[k];
    return mix64(h ^ (uint64_t)tlen);
}

static int rkey_same(const Relax *X, const RKey *k, int i, const unsigned char *t, int tlen,
                     uint64_t tops, int live, u128 waiting) {
    return k->i == i && k->tlen == tlen && k->tops == tops && k->live == live &&
           k->waiting == waiting && !memcmp(X->bytes + k->at, t, (size_t)tlen);
}

static int relax_lost(const Relax *X, uint64_t h, int i, const unsigned char *t, int tlen,
                      uint64_t tops, int live, u128 waiting) {
    if (!X->nslots) return 0;
    for (size_t s = h & (X->nslots - 1);; s = (s + 1) & (X->nslots - 1)) {
        size_t e = X->slots[s];
        if (!e) return 0;
        const RKey *k = &X->keys[e - 1];
        if (k->hash == h && rkey_same(X, k, i, t, tlen, tops, live, waiting)) return 1;
    }
}

static int relax_add(Relax *X, uint64_t h, int i, const unsigned char *t, int tlen,
                     uint64_t tops, int live, u128 waiting) {
    if (relax_lost(X, h, i, t, tlen, tops, live, waiting)) return 0;
    if (2 * (size_t)(X->len + 1) > X->nslots) {
        size_t n = X->nslots ? 2 * X->nslots : 1024;
        size_t *slots = PyMem_Calloc(n, sizeof(size_t));
        if (!slots) {
            PyErr_NoMemory();
            return -1;
        }
        for (int e = 0; e < X->len; e++) {
            size_t s = X->keys[e].hash & (n - 1);
            while (slots[s]) s = (s + 1) & (n - 1);
            slots[s] = (size_t)e + 1;
        }
        PyMem_Free(X->slots);
        X->slots = slots;
        X->nslots = n;
    }
    if (grow((void **)&X->keys, &X->cap, X->len + 1, sizeof(RKey)) < 0 ||
        grow((void **)&X->bytes, &X->bcap, X->blen + tlen, 1) < 0)
        return -1;
    memcpy(X->bytes + X->blen, t, (size_t)tlen);
    X->keys[X->len] = (RKey){h, tops, waiting, i, live, tlen, X->blen};
    X->blen += tlen;
    size_t s = h & (X->nslots - 1);
    while (X->slots[s]) s = (s + 1) & (X->nslots - 1);
    X->slots[s] = (size_t)++X->len;
    return 0;
}

/* Relaxation._enter: card c enters; the bottoms waiting for it come alive. */
static inline void relax_enter(int c, uint64_t *tops, int *live, u128 *waiting) {
    if (!((*tops >> c) & 1)) {
        *tops |= (uint64_t)1 << c;
        if (LEVEL[c] < 3) {
            int shift = 2 * (c + 3);
            *live += (int)((*waiting >> shift) & 3);
            *waiting &= ~((u128)3 << shift);
        }
    }
}

/* Relaxation._new_bottom: card f filled a space. */
static inline void relax_new_bottom(int f, uint64_t tops, int *live, u128 *waiting) {
    if (LEVEL[f]) {
        if ((tops >> PREV[f]) & 1)
            (*live)++;
        else
            *waiting += (u128)1 << (2 * f);
    }
}

static int relax_search(Relax *X, int i, const unsigned char *talon, int tlen, uint64_t tops,
                        int live, u128 waiting) {
    X->nodes++;
    if (X->max_nodes >= 0 && X->nodes > X->max_nodes) return TIMEUP;
    if ((X->nodes & 1023) == 0) {
        double seconds;
        if (read_clock(&seconds) < 0) return ERR;
        if (seconds > X->deadline) return TIMEUP;
    }
    unsigned char t[MAXN];
    memcpy(t, talon, (size_t)tlen);
    while (tlen) {
        int c = t[tlen - 1], prev = PREV[c];
        if (prev < 0 || !((tops >> prev) & 1)) break;
        tlen--;
        relax_enter(c, &tops, &live, &waiting);
    }
    if (i >= X->nstock) {
        while (tlen) {
            int c = t[--tlen], prev = PREV[c];
            if (prev >= 0 && ((tops >> prev) & 1)) {
                relax_enter(c, &tops, &live, &waiting);
            } else if (X->fill && live) {
                live--;
                relax_enter(c, &tops, &live, &waiting);
                relax_new_bottom(c, tops, &live, &waiting);
            } else {
                return 0;
            }
        }
        return 1;
    }
    uint64_t h = rkey_hash(i, t, tlen, tops, live, waiting);
    if (relax_lost(X, h, i, t, tlen, tops, live, waiting)) return 0;
    if (!X->fill)
        for (int k = 0; k < tlen; k++)
            if (!LEVEL[t[k]]) return relax_add(X, h, i, t, tlen, tops, live, waiting) < 0 ? ERR : 0;
    if (live) {
        int f = X->stock[i], live2 = live - 1;
        uint64_t tops2 = tops;
        u128 waiting2 = waiting;
        relax_enter(f, &tops2, &live2, &waiting2);
        relax_new_bottom(f, tops2, &live2, &waiting2);
        int rc = relax_search(X, i + 1, t, tlen, tops2, live2, waiting2);
        if (rc) return rc;
    }
    int j = imin(X->nstock, i + X->draw);
    unsigned char dealt[MAXN];
    memcpy(dealt, t, (size_t)tlen);
    for (int k = i; k < j; k++) dealt[tlen + k - i] = (unsigned char)X->stock[k];
    int rc = relax_search(X, j, dealt, tlen + j - i, tops, live, waiting);
    if (rc) return rc;
    return relax_add(X, h, i, t, tlen, tops, live, waiting) < 0 ? ERR : 0;
}

/* relax(talon, stock, tops, live, waiting, draw, fill_from_talon, nodes, max_nodes,
 * deadline): Relaxation.winnable's search, from a set of positions proven lost that is
 * empty; (True, False or None, the nodes counted). */
static PyObject *py_relax(PyObject *self, PyObject *args) {
    PyObject *talono, *stocko, *topso, *waitingo;
    int live, draw, fill;
    long long nodes, max_nodes;
    double deadline;
    if (!PyArg_ParseTuple(args, "OOOiOipLLd", &talono, &stocko, &topso, &live, &waitingo,
                          &draw, &fill, &nodes, &max_nodes, &deadline))
        return NULL;
    int talon[MAXN], stock[MAXN];
    int tlen = int_list_in(talono, "talon", talon, MAXN - 1, N_CARDS);
    int slen = tlen < 0 ? -1 : int_list_in(stocko, "stock", stock, MAXN - 1, N_CARDS);
    if (slen < 0) return NULL;
    if (tlen + slen >= MAXN) {
        PyErr_Format(PyExc_ValueError, "more than %d cards outside the grid", MAXN - 1);
        return NULL;
    }
    unsigned char t[MAXN];
    for (int k = 0; k < tlen; k++) t[k] = (unsigned char)talon[k];
    u128 tops128 = 0, waiting = 0;
    if (mask_from_int(topso, &tops128) < 0 || mask_from_int(waitingo, &waiting) < 0) return NULL;
    if (draw < 1 || tops128 >> N_CARDS) {
        PyErr_SetString(PyExc_ValueError, "the relaxation's draw or tops are out of range");
        return NULL;
    }
    Relax X = {stock, slen, draw, fill, nodes, max_nodes, deadline};
    int rc = relax_search(&X, 0, t, tlen, (uint64_t)tops128, live, waiting);
    PyMem_Free(X.keys);
    PyMem_Free(X.bytes);
    PyMem_Free(X.slots);
    if (rc == ERR) return NULL;
    PyObject *verdict = rc == TIMEUP ? Py_None : rc ? Py_True : Py_False;
    return Py_BuildValue("OL", verdict, X.nodes);
}

/* ------------------------------------------------------ the honest player's rollouts */
/* rollouts.py's model: a cell is a pile code (bottom * 48 + top, -1 empty); the stock and
 * the talon have their tops last. */

#define ROLL_PEELS 4      /* PEELS_BETWEEN_ENTRIES */
#define ROLL_MAXMOVES 64

typedef struct {
    int cells[GRID_SIZE];
    int stock[MAXN], talon[MAXN];
    int ns, nt;
    int run, fill, draw;
} Roll;

static inline int roll_next(int c) { return c % 12 < 9 ? c + 3 : -1; }

/* _fill: fill the space at cell (stock first, then the talon if the rules say so). */
static inline void roll_fill(Roll *t, int cell) {
    int c;
    if (t->ns) c = t->stock[--t->ns];
    else if (t->fill && t->nt) c = t->talon[--t->nt];
    else {
        t->cells[cell] = -1;
        return;
    }
    t->cells[cell] = c * N_CARDS + c;
}

/* _peel: the shortest pile that can go onto another top and then be emptied; 0 if none. */
static int roll_peel(const int *cells, int *src, int *dst) {
    int tops[N_CARDS] = {0};
    for (int i = 0; i < GRID_SIZE; i++)
        if (cells[i] >= 0) tops[cells[i] % N_CARDS]++;
    int found = 0, best_len = 0;
    for (int s = 0; s < GRID_SIZE; s++) {
        int pile = cells[s];
        if (pile < 0) continue;
        int b = pile / N_CARDS, top = pile % N_CARDS;
        int onto = PREV[top], under = PREV[b];
        if (b == top || onto < 0 || under < 0 || !tops[onto] || !tops[under]) continue;
        int all = 1;
        for (int c = b; c < top; c += 3)
            if (!tops[c]) {
                all = 0;
                break;
            }
        if (!all) continue;
        int length = (top - b) / 3 + 1;
        if (!found || length < best_len) {
            int d = 0;
            while (d == s || cells[d] < 0 || cells[d] % N_CARDS != onto) d++;
            found = 1, best_len = length, *src = s, *dst = d;
        }
    }
    return found;
}

/* base_move: 0 a talon build onto dst, 1 a grid build, 2 a deal, -1 at the end. */
static int roll_base_move(const Roll *t, int peels, int *src, int *dst) {
    const int *cells = t->cells;
    int by_top[N_CARDS];
    for (int c = 0; c < N_CARDS; c++) by_top[c] = -1;
    for (int i = GRID_SIZE - 1; i >= 0; i--)
        if (cells[i] >= 0) by_top[cells[i] % N_CARDS] = i;
    if (t->nt) {
        int want = PREV[t->talon[t->nt - 1]];
        if (want >= 0 && by_top[want] >= 0) {
            *dst = by_top[want];
            return 0;
        }
    }
    if (t->ns || (t->fill && t->nt)) {
        for (int s = 0; s < GRID_SIZE; s++) {
            int pile = cells[s];
            if (pile < 0) continue;
            int b = pile / N_CARDS;
            if (!t->run && b != pile % N_CARDS) continue;
            int d = LEVEL[b] ? by_top[PREV[b]] : -1;
            if (d >= 0) {
                *src = s, *dst = d;
                return 1;
            }
        }
        if (!t->run && peels < ROLL_PEELS && roll_peel(cells, src, dst)) return 1;
    }
    return t->ns ? 2 : -1;
}

static inline void roll_deal(Roll *t) {
    for (int k = 0; k < t->draw && t->ns; k++) t->talon[t->nt++] = t->stock[--t->ns];
}

/* A grid build from src onto dst; whether it emptied its source (and filled the space). */
static inline int roll_build(Roll *t, int s, int d) {
    int src = t->cells[s], dst = t->cells[d];
    int onto = dst % N_CARDS;
    t->cells[d] = (dst / N_CARDS) * N_CARDS + src % N_CARDS;
    if (src / N_CARDS == roll_next(onto)) {
        roll_fill(t, s);
        return 1;
    }
    t->cells[s] = (src / N_CARDS) * N_CARDS + onto;
    return 0;
}

/* Whether some cards of the pile src can go onto the pile dst: the card after dst's top
 * lies in src. */
static inline int roll_moves(int src, int dst) {
    int b = src / N_CARDS, top = src % N_CARDS, moved = roll_next(dst % N_CARDS);
    return moved >= b && moved <= top && (moved - b) % 3 == 0;
}

/* roll_out: the base policy to the end or for budget steps; the steps taken. */
static long long roll_out(Roll *t, long long budget) {
    int peels = 0;
    long long steps = 0;
    int s = -1, d = -1;
    while (steps < budget) {
        int kind = roll_base_move(t, peels, &s, &d);
        if (kind < 0) break;
        steps++;
        if (kind == 0) {
            int dst = t->cells[d];
            t->cells[d] = (dst / N_CARDS) * N_CARDS + t->talon[--t->nt];
            peels = 0;
        } else if (kind == 2) {
            roll_deal(t);
        } else if (roll_build(t, s, d)) {
            peels = 0;
        } else {
            peels++;
        }
    }
    return steps;
}

/* rollouts(cells, stock, talon, moves, run, fill_from_talon, draw, horizon): for each
 * move (kind, src, dst) of the model (0 a talon build, 1 a grid build, 2 a deal), the
 * score after the move and a rollout of at most horizon steps, and the model moves spent
 * in all (each rollout's steps and its move): rollouts.order_scores. */
static PyObject *py_rollouts(PyObject *self, PyObject *args) {
    PyObject *cellso, *stocko, *talono, *moveso;
    int run, fill, draw;
    long long horizon;
    if (!PyArg_ParseTuple(args, "OOOOppiL", &cellso, &stocko, &talono, &moveso, &run, &fill,
                          &draw, &horizon))
        return NULL;
    Roll root;
    if (!PyList_Check(cellso) || PyList_GET_SIZE(cellso) != GRID_SIZE) {
        PyErr_SetString(PyExc_ValueError, "cells: a list of 24 pile codes was expected");
        return NULL;
    }
    for (int i = 0; i < GRID_SIZE; i++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(cellso, i));
        if (v == -1 && PyErr_Occurred()) return NULL;
        long b = v / N_CARDS, top = v % N_CARDS;
        if (v < -1 || v >= N_CARDS * N_CARDS
            || (v >= 0 && (top < b || b / 12 != top / 12 || (top - b) % 3))) {
            PyErr_Format(PyExc_ValueError, "cells: %ld is no pile code", v);
            return NULL;
        }
        root.cells[i] = (int)v;
    }
    int ns = int_list_in(stocko, "stock", root.stock, MAXN - 1, N_CARDS);
    int nt = ns < 0 ? -1 : int_list_in(talono, "talon", root.talon, MAXN - 1, N_CARDS);
    if (nt < 0) return NULL;
    if (ns + nt >= MAXN || draw < 1) {
        PyErr_SetString(PyExc_ValueError, "too many cards outside the grid, or no draw");
        return NULL;
    }
    root.ns = ns, root.nt = nt, root.run = run, root.fill = fill, root.draw = draw;
    if (!PyList_Check(moveso) || PyList_GET_SIZE(moveso) > ROLL_MAXMOVES) {
        PyErr_Format(PyExc_ValueError, "moves: a list of at most %d moves was expected",
                     ROLL_MAXMOVES);
        return NULL;
    }
    int nm = (int)PyList_GET_SIZE(moveso);
    int kinds[ROLL_MAXMOVES], srcs[ROLL_MAXMOVES], dsts[ROLL_MAXMOVES];
    for (int i = 0; i < nm; i++) {
        if (!PyArg_ParseTuple(PyList_GET_ITEM(moveso, i), "iii", &kinds[i], &srcs[i], &dsts[i]))
            return NULL;
        int k = kinds[i], s = srcs[i], d = dsts[i];
        int ok = k == 2 ? root.ns > 0
               : k == 0 ? d >= 0 && d < GRID_SIZE && root.nt && root.cells[d] >= 0
                          && PREV[root.talon[nt - 1]] == root.cells[d] % N_CARDS
               : k == 1 && s >= 0 && s < GRID_SIZE && d >= 0 && d < GRID_SIZE && s != d
                          && root.cells[s] >= 0 && root.cells[d] >= 0
                          && roll_moves(root.cells[s], root.cells[d]);
        if (!ok) {
            PyErr_Format(PyExc_ValueError, "moves: (%d, %d, %d) is no move of the model here",
                         k, s, d);
            return NULL;
        }
    }
    PyObject *scores = PyList_New(nm);
    if (!scores) return NULL;
    long long spent = 0;
    Roll t;
    for (int i = 0; i < nm; i++) {
        memcpy(&t, &root, sizeof t);
        if (kinds[i] == 2) roll_deal(&t);
        else if (kinds[i] == 0) {
            int dst = t.cells[dsts[i]];
            t.cells[dsts[i]] = (dst / N_CARDS) * N_CARDS + t.talon[--t.nt];
        } else roll_build(&t, srcs[i], dsts[i]);
        spent += roll_out(&t, horizon) + 1;
        PyList_SET_ITEM(scores, i, PyLong_FromLong(t.ns + t.nt));
    }
    return Py_BuildValue("NL", scores, spent);
}

static PyMethodDef core_methods[] = {
    {"configure", py_configure, METH_VARARGS,
     "configure(TimeUp, PhaseEnd, perf_counter): what the core raises and calls."},
    {"dfs", py_dfs, METH_VARARGS,
     "dfs(search, grid, cut, redeals, mask): Search._dfs (a run-mode int grid or a "
     "card-mode tuple)."},
    {"win", py_win, METH_VARARGS,
     "win(search, grid, cut, redeals, mask): WinSearch._win (either kind of grid)."},
    {"probe", py_probe, METH_VARARGS,
     "probe(search, rng, grid, cut, redeals, mask, budget): PlayoutSearch._probe of a "
     "run-mode search."},
    {"beam", py_beam, METH_VARARGS,
     "beam(search, grid, cut, redeals, width): PlayoutSearch._beam (either kind of grid)."},
    {"lower_bound", py_lower_bound, METH_VARARGS,
     "lower_bound(grid, seq, cut, redeals, best, fill_from_talon, unlimited, redeals_max, draw=3)."},
    {"relax", py_relax, METH_VARARGS,
     "relax(talon, stock, tops, live, waiting, draw, fill_from_talon, nodes, max_nodes, "
     "deadline): Relaxation.winnable's search; (verdict, nodes)."},
    {"rollouts", py_rollouts, METH_VARARGS,
     "rollouts(cells, stock, talon, moves, run, fill_from_talon, draw, horizon): "
     "rollouts.order_scores; (scores, steps spent)."},
    {"bases_unmatched", py_bases_unmatched, METH_VARARGS,
     "bases_unmatched(tops, bots, seq, cut, fill_from_talon): bounds.bases_unmatched."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core",
    "The compiled search core of devilsgrip.solver (see devilsgrip.solver.core).", -1,
    core_methods,
};

PyMODINIT_FUNC PyInit__core(void) {
    for (int c = 0; c < N_CARDS; c++) {
        LEVEL[c] = c % 12 / 3;
        PREV[c] = c % 12 >= 3 ? c - 3 : -1;
        LOW |= TF(c);
        if (LEVEL[c]) NONBASE |= TF(c);
    }
    NONBASE_BOTH = NONBASE * 3;
    BASE_LOW = LOW & ~NONBASE;
    init_fields();
    if (PyType_Ready(&TableType) < 0) return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    Py_INCREF(&TableType);
    if (PyModule_AddObject(m, "Table", (PyObject *)&TableType) < 0) {
        Py_DECREF(&TableType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
