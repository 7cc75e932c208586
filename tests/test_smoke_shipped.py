"""The shipped rules compile cleanly and DAK's override reaches the IR."""

from typing import Any

from conftest import member


def test_dak_4_5a_f_is_not_negatable_and_cites_series_and_dak(dak: dict[str, Any]) -> None:
    f = member(dak, "EzocAction", "F")
    assert f["attrs"]["negatable"]["value"] is False
    assert f["attrs"]["negatable"]["origin"]["layer"] == "DAK"
    assert f["origin"]["layer"] == "OCS" and f["origin"]["clause"] == "4.5a"
    assert [o["layer"] for o in f["overridden_by"]] == ["DAK"]
    assert "In either edition of DAK" in f["overridden_by"][0]["notes"][0]["text"]


def test_series_4_5a_f_is_negatable(ocs: dict[str, Any]) -> None:
    f = member(ocs, "EzocAction", "F")
    assert f["attrs"]["negatable"]["value"] is True
    assert f["overridden_by"] == []
