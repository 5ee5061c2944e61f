"""Files as they come (issue 11): special outputs, encodings, line endings, size, include chains, folder scans.

Each case runs the real command; none may hang, print a traceback or replace what the user had.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from helpers.paths import EXAMPLES, ROOT
from rallyc.commands.cli import app
from rallyc.project.fileio import write_atomic


STAGE = "stage SS1 {\n  202a\n  205a\n  206a\n  208a left\n  204a\n  203a\n}\n"


def _run(*argv: str):
    result = CliRunner().invoke(app, [str(a) for a in argv])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result


# ------------------------------------------------------------------ -o onto special files


def test_output_onto_a_fifo_is_written_through(tmp_path):
    fifo = tmp_path / "map.svg"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    result = _run("render", EXAMPLES / "rally-1.rally", "--stage", "SS1", "-o", fifo)
    reader.join(timeout=60)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert got and got[0].startswith(b"<?xml") and got[0].rstrip().endswith(b"</svg>")
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_output_onto_dev_null_leaves_the_device(tmp_path):
    before = os.stat("/dev/null")
    for argv in (["render", EXAMPLES / "rally-1.rally", "--stage", "SS1", "-o", "/dev/null"],
                 ["export", EXAMPLES / "rally-1.rally", "--to", "rekee", "-o", "/dev/null"]):
        result = _run(*argv)
        assert result.exit_code == 0, result.output
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_regular_files_are_still_replaced_atomically(tmp_path):
    out = tmp_path / "out.txt"
    out.write_text("old", encoding="utf-8")
    inode = out.stat().st_ino
    write_atomic(out, "new")
    assert out.read_text(encoding="utf-8") == "new" and out.stat().st_ino != inode


def test_file_handling_is_not_posix_only():
    """os.replace and tempfile only: nothing in the file modules imports fcntl or calls os.rename."""
    for module in ("project/fileio.py", "project/loader.py", "commands/outputs.py"):
        text = (ROOT / "rallyc" / module).read_text(encoding="utf-8")
        assert "fcntl" not in text and "os.rename(" not in text and "os.link(" not in text, module


# ------------------------------------------------------------------ encodings and line endings


def test_utf16_with_a_byte_order_mark_is_read(tmp_path):
    f = tmp_path / "s.rally"
    f.write_bytes(STAGE.encode("utf-16"))
    assert f.read_bytes()[:2] in (b"\xff\xfe", b"\xfe\xff")
    result = _run("check", f)
    assert result.exit_code == 0, result.output


def test_utf16_without_a_byte_order_mark_is_named(tmp_path):
    f = tmp_path / "s.rally"
    f.write_bytes(STAGE.encode("utf-16-le"))
    result = _run("check", f)
    assert result.exit_code == 1
    assert "s.rally:1:2: error[RC102]: this file looks like UTF-16 text without a byte-order mark" in result.output


def test_utf16_rekee_file_is_imported(tmp_path):
    f = tmp_path / "t.json"
    f.write_bytes('{"title": "T", "tiles": [{"id": "202a", "q": 0, "r": 0, "dir": 0}]}'.encode("utf-16"))
    result = _run("import", f)
    assert result.exit_code in (0, 1) and "202a" in result.output


def test_cr_only_line_endings_get_a_hint(tmp_path):
    f = tmp_path / "mac.rally"
    f.write_bytes(STAGE.replace("\n", "\r").encode())
    result = _run("check", f)
    assert result.exit_code == 1
    assert "mac.rally:1:12: error[RC117]" in result.output and "CRLF" in result.output


def test_crlf_is_read(tmp_path):
    f = tmp_path / "win.rally"
    f.write_bytes(STAGE.replace("\n", "\r\n").encode())
    assert _run("check", f).exit_code == 0


def test_windows_style_include_path_gets_a_clear_answer(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "tiles.rally").write_text("tileset mine {}\n", encoding="utf-8")
    f = tmp_path / "main.rally"
    f.write_bytes(b'use "sub\\\\tiles.rally"\r\n' + STAGE.replace("\n", "\r\n").encode())
    result = _run("check", f)
    assert result.exit_code == 1
    assert "main.rally:1:1: error[RC110]" in result.output and "write `/` between folders" in result.output
    f.write_bytes(b'use "sub/tiles.rally"\r\n' + STAGE.replace("\n", "\r\n").encode())
    assert _run("check", f).exit_code == 0


def test_console_output_survives_a_code_page_without_the_characters(tmp_path):
    f = tmp_path / "s.rally"
    f.write_text('stage SS1 "Col de Turini \u00e9 \u4e2d" { 202a; 203x }\n', encoding="utf-8")
    env = dict(os.environ, PYTHONIOENCODING="cp1252")  # a Windows code page without \u4e2d
    run = subprocess.run([sys.executable, "-m", "rallyc", "check", "--format", "text", str(f)],
                         capture_output=True, env=env, timeout=120, cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    assert b"Traceback" not in run.stderr and b"RC131" in run.stdout + run.stderr
    assert b"Col de Turini \xe9 \\u4e2d" in run.stdout + run.stderr


# ------------------------------------------------------------------ size, includes, folders


def test_size_limit_applies_before_reading(tmp_path):
    big = tmp_path / "huge.rally"
    with open(big, "wb") as f:  # a sparse gigabyte: reading it would take seconds and a gigabyte of memory
        f.truncate(1 << 30)
    result = _run("check", big)
    assert result.exit_code == 1 and "huge.rally:1:1: error[RC101]" in result.output


def test_a_long_include_chain_is_refused_without_recursion_error(tmp_path):
    n = 970
    for i in range(n):
        (tmp_path / f"p{i}.rally").write_text(f'use "p{i + 1}.rally"\n', encoding="utf-8")
    (tmp_path / f"p{n}.rally").write_text("tileset mine {}\n", encoding="utf-8")
    (tmp_path / "main.rally").write_text('use "p0.rally"\n' + STAGE, encoding="utf-8")
    result = _run("check", tmp_path / "main.rally")
    assert result.exit_code == 1
    assert "error[RC116]" in result.output and "RecursionError" not in result.output and "RC100" not in result.output


def test_use_of_a_fifo_does_not_hang(tmp_path):
    os.mkfifo(tmp_path / "p.rally")
    (tmp_path / "main.rally").write_text('use "p.rally"\n' + STAGE, encoding="utf-8")
    result = _run("check", tmp_path / "main.rally")
    assert result.exit_code == 1 and "main.rally:1:1: error[RC118]" in result.output


def test_fifo_in_a_checked_folder_is_left_out(tmp_path):
    (tmp_path / "ok.rally").write_text(STAGE, encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.rally")
    result = _run("check", tmp_path)
    assert result.exit_code == 0 and "warning[RC118]" in result.output and "pipe.rally" in result.output


def test_folder_scan_does_not_follow_a_link_out_of_the_folder(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    project = tmp_path / "project"
    project.mkdir()
    (project / "ok.rally").write_text(STAGE, encoding="utf-8")
    (project / "x.rally").symlink_to(secret)
    (project / "inside.rally").symlink_to(project / "ok.rally")
    result = _run("check", project)
    assert result.exit_code == 0, result.output
    assert "warning[RC119]" in result.output and "root:x" not in result.output


def test_folder_scan_with_broken_links_warns_for_each_and_checks_the_rest(tmp_path):
    """Issue 32: a loop, a dangling link and a link out of the folder are each a located warning; the valid
    file beside them and a broken one are checked (was: internal error RuntimeError, exit 2)."""
    (tmp_path / "ok.rally").write_text(STAGE, encoding="utf-8")
    (tmp_path / "broken.rally").write_text("stage SS1 {\n  202a\n  299a\n  203a\n}\n", encoding="utf-8")
    (tmp_path / "self.rally").symlink_to("self.rally")
    (tmp_path / "a.rally").symlink_to("b.rally")
    (tmp_path / "b.rally").symlink_to("a.rally")
    (tmp_path / "gone.rally").symlink_to("nowhere.rally")
    (tmp_path / "out.rally").symlink_to("/etc/hostname")
    for fmt in ("text", "json", "github", "gitlab", "sarif"):
        result = _run("check", "--no-cache", "--format", fmt, tmp_path)
        assert result.exit_code == 1 and "RC130" in result.output and "Traceback" not in result.output, fmt
    result = _run("check", "--no-cache", tmp_path)
    for name, says in [("self.rally", "a symbolic link in a loop"), ("a.rally", "a symbolic link in a loop"),
                       ("b.rally", "a symbolic link in a loop"), ("gone.rally", "which does not exist"),
                       ("out.rally", "outside the folder")]:
        code = "RC119" if name == "out.rally" else "RC118"
        assert f"{tmp_path / name}:1:1: warning[{code}]: {tmp_path / name} is " in result.output, name
        assert says in result.output
    assert "broken.rally:3:3: error[RC130]" in result.output
    assert result.output.rstrip().endswith("1 error(s), 5 warning(s)")
    (tmp_path / "broken.rally").unlink()
    result = _run("check", "--no-cache", tmp_path)
    assert result.exit_code == 0 and "0 error(s), 5 warning(s)" in result.output


def test_use_of_a_link_in_a_loop_is_located(tmp_path):
    (tmp_path / "self.rally").symlink_to("self.rally")
    (tmp_path / "main.rally").write_text('use "self.rally"\n' + STAGE, encoding="utf-8")
    result = _run("check", "--no-cache", tmp_path / "main.rally")
    assert result.exit_code == 1 and "main.rally:1:1: error[RC110]" in result.output
    assert "a symbolic link in a loop" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("command", [["check"], ["compile"], ["stats"], ["fmt", "--check"], ["render", "-o", "x.svg"],
                                     ["suggest"], ["export", "--to", "rekee"], ["analyze", "--runs", "2"],
                                     ["tiles", "list", "--project"]])
def test_cr_only_line_endings_get_rc117_from_every_command(tmp_path, monkeypatch, command):
    """Issue 32: `suggest` said "the file has no stage"."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mac.rally").write_bytes(STAGE.replace("\n", "\r").encode("utf-8"))
    result = _run(*command, "mac.rally")
    assert result.exit_code == 1, result.output
    assert "mac.rally:1:" in result.output and "error[RC117]" in result.output
