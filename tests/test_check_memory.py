"""A check of a file of many stages holds one stage's track at a time, not the whole file's (issue 11).

The 1.99 MB file of 8-tile stages once took 2.5 GB to check because every stage's space graph stayed
alive until the end; a check needs only the diagnostics. Measured with tracemalloc, as a ratio between
two runs of the same process (never a time).
"""


from helpers.memory import STAGE, many_stages_file, peak
from rallyc import api
from rallyc.project.loader import load_text

def test_check_drops_each_track_once_checked(tmp_path):
    """What a check holds grows with the file's text (its syntax tree), not with its tracks' graphs."""
    small, large = many_stages_file(tmp_path, 15), many_stages_file(tmp_path, 45)
    api.check([small[1]], cache=False)  # warm: imports, parser tables, the tile catalogue

    def keeping(text: str, path) -> int:
        return peak(lambda: api.compile_loaded(load_text(text, str(path))))

    def checking(text: str, path) -> int:
        return peak(lambda: api.check([path], cache=False))

    kept = keeping(*large) - keeping(*small)
    checked = checking(*large) - checking(*small)
    assert checked * 2 < kept, (checked, kept)


def test_check_still_reports_every_stage(tmp_path):
    bad = STAGE.format(i=0) + STAGE.format(i=1).replace("206b", "999z")
    path = tmp_path / "two.rally"
    path.write_text(bad)
    found = api.check([path], cache=False)
    assert not found.ok
    assert any("999z" in d.message for d in found.diagnostics)
    result = api.compile_loaded(load_text(STAGE.format(i=0), "one.rally"))
    assert [t.name for d in result.designs for t in d.tracks] == ["S0"]
