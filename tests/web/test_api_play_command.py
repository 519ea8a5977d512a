"""``devilsgrip play``: options, the loopback warning, a clean stop on Ctrl-C."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest

from devilsgrip.cli import build_parser, main
from devilsgrip.commands.play import is_loopback
from devilsgrip.web.server import ServerOptions, WebState, url_of


def test_play_is_the_default_command() -> None:
    parser = build_parser()
    args = parser.parse_args(["play", "--no-browser", "--port", "8123", "--game", "5",
                              "--lang", "fr", "--rules", "single-pass"])
    assert (args.no_browser, args.port, args.game, args.lang, args.rules) == (
        True, 8123, 5, "fr", "single-pass"
    )
    assert args.host == "127.0.0.1"


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.0.0.2", True), ("localhost", True), ("::1", True),
     ("0.0.0.0", False), ("192.168.1.5", False), ("example.org", False)],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_bad_options_fail_clearly(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--no-browser", "--port", "70000"]) == 2
    assert main(["play", "--no-browser", "--rules", "nonsense"]) == 2
    assert main(["play", "--no-browser", "--game", "0"]) == 2
    assert main(["play", "--no-browser", "--deck", "2S"]) == 2
    err = capsys.readouterr().err
    assert err.count("devilsgrip") >= 4


def test_allowed_hosts() -> None:
    web = WebState(ServerOptions(port=8123, use_store=False))
    assert {"127.0.0.1:8123", "localhost:8123", "[::1]:8123"} <= web.allowed_hosts
    assert "example.org:8123" not in web.allowed_hosts
    lan = WebState(ServerOptions(host="192.168.1.5", port=80, use_store=False))
    assert {"192.168.1.5:80", "192.168.1.5"} <= lan.allowed_hosts
    assert url_of("0.0.0.0", 8000) == "http://127.0.0.1:8000/"
    assert url_of("::1", 8000) == "http://[::1]:8000/"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.mark.slow
@pytest.mark.parametrize("host", ["127.0.0.1", "0.0.0.0"])
def test_serves_prints_and_stops_on_ctrl_c(tmp_path: Path, host: str) -> None:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "devilsgrip", "--no-browser", "--port", str(port), "--host", host,
         "--db", str(tmp_path) + "/games.sqlite3", "--lang", "en"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line
        r = httpx2.get(f"http://127.0.0.1:{port}/api/game")
        assert r.status_code == 200 and r.json()["game"]["saving"] is True
        time.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=15)
    assert proc.returncode == 0, err
    assert ("warning" in err) is (host != "127.0.0.1")
    assert "Traceback" not in err


@pytest.mark.slow
def test_a_damaged_database_is_reported_on_the_terminal_too(tmp_path: Path) -> None:
    db = tmp_path / "broken.sqlite3"
    db.write_bytes(b"not a database" * 100)
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "devilsgrip", "--no-browser", "--port", str(port),
         "--db", str(db), "--lang", "en"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    try:
        assert proc.stdout is not None
        assert f"http://127.0.0.1:{port}/" in proc.stdout.readline()
        r = httpx2.get(f"http://127.0.0.1:{port}/api/game")
        assert r.json()["game"]["saving"] is False
    finally:
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=15)
    assert "not being saved" in err and "broken.sqlite3" in err and "Traceback" not in err
    assert db.read_bytes() == b"not a database" * 100
