"""The translations: every key the page uses exists in English, simplified and traditional Chinese, with
the same placeholders; every city of both maps has a name in every language; the rulebooks' terms."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ttr.bots.hint import REASONS
from ttr.engine.phases import PHASE_NAMES
from ttr.maps import BUILTIN_MAPS, load_map

WEB = Path(__file__).resolve().parents[2] / "src" / "ttr" / "web"
LANGS = ("en", "zh-Hans", "zh-Hant")
WS_ERRORS = ("malformed", "too_large", "unknown_type", "join_first", "bad_token", "spectator", "not_your_turn",
             "stale_version", "illegal", "game_over", "not_found")
CREATE_ERRORS = ("malformed", "unknown_map", "unknown_level", "bad_seats", "too_large",  # POST /api/games
                 "network")  # no answer


def load(lang: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def strings(lang: str) -> dict[str, str]:
    return {k: v for k, v in load(lang).items() if k != "cities" and isinstance(v, str)}


def used_keys() -> set[str]:
    """Every literal key in the page's modules and HTML: quoted strings in a namespace of en.json."""
    namespaces = {key.split(".")[0] for key in strings("en")}
    alternatives = "|".join(sorted(namespaces))
    pattern = re.compile(r"""["'`]((?:""" + alternatives + r""")\.[a-z_]+(?:\.[a-z_]+)*)["'`]""")
    keys: set[str] = set()
    sources = [*sorted((WEB / "static" / "js").glob("*.js")), WEB / "static" / "index.html"]
    for path in sources:
        keys.update(pattern.findall(path.read_text(encoding="utf-8")))
    return keys


def family_keys() -> set[str]:
    """Keys the page builds from data: card colours, levels, maps, statuses, phases, errors, tie-breaks."""
    keys = {"color.gray", "status.running", "status.finished", "final.tiebreak.shared"}
    for name in BUILTIN_MAPS:
        m = load_map(name)
        keys.add(f"map.{name}")
        keys.add(f"board.title.{name}")  # the board's own title, in the page's language
        keys.update(f"color.{c}" for c in m.card_names)
        keys.update(f"final.tiebreak.{tb}" for tb in m.rules.tiebreaks)
    keys.update(f"level.{lv}" for lv in ("easy", "medium", "hard", "expert", "random", "greedy"))
    keys.update(f"turn.{phase}" for phase in set(PHASE_NAMES) - {"game_over"})
    keys.update(f"error.{code}" for code in WS_ERRORS)
    keys.update(f"error.create.{code}" for code in CREATE_ERRORS)
    keys.update(REASONS)  # hint reasons: the server sends the key (reason_i18n)
    keys.update(piece_keys())
    return keys


def piece_keys() -> set[str]:
    """`piece.{word}` for each shipped map's piece word, plural and singular (a hint's `pieces`)."""
    words = set()
    for name in BUILTIN_MAPS:
        word = load_map(name).rules.piece_name
        words.update({word, word.removesuffix("s")})
    return {f"piece.{w}" for w in words}


@pytest.mark.parametrize("lang", LANGS)
def test_every_hint_reason_is_translated_with_its_placeholders(lang: str) -> None:
    have = strings(lang)
    holes = re.compile(r"\{(\w+)\}")
    for key, english in REASONS.items():
        assert key in have, f"{lang}.json lacks the hint reason {key}"
        assert set(holes.findall(have[key])) == set(holes.findall(english)), f"{lang}.json: {key} placeholders"
        if lang == "en":
            assert have[key] == english  # the page's English is the server's
        else:
            assert re.search(r"[\u4e00-\u9fff]", have[key]), f"{lang}: {key} is not in Chinese"
    assert piece_keys() <= set(have)


def test_the_page_uses_keys_and_the_scan_finds_them() -> None:
    keys = used_keys()
    assert {"app.title", "act.claim", "tunnel.give_up", "final.total", "replay.next"} <= keys


@pytest.mark.parametrize("lang", LANGS)
def test_every_key_used_exists(lang: str) -> None:
    have = strings(lang)
    missing = sorted((used_keys() | family_keys()) - set(have))
    assert not missing, f"{lang}.json lacks {missing}"
    empty = sorted(k for k, v in have.items() if not v.strip())
    assert not empty, f"{lang}.json has empty strings: {empty}"


@pytest.mark.parametrize("lang", LANGS[1:])
def test_same_keys_and_placeholders_as_english(lang: str) -> None:
    en, other = strings("en"), strings(lang)
    assert set(other) == set(en), f"keys differ: {sorted(set(other) ^ set(en))}"
    holes = re.compile(r"\{(\w+)\}")
    wrong = sorted(k for k in en if set(holes.findall(en[k])) != set(holes.findall(other[k])))
    assert not wrong, f"{lang}.json placeholders differ from English in {wrong}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_city_of_both_maps_is_named(lang: str) -> None:
    cities = load(lang)["cities"]
    assert isinstance(cities, dict)
    for name in BUILTIN_MAPS:
        for c in load_map(name).cities:
            text = cities.get(c.name)
            assert isinstance(text, str) and text.strip(), f"{lang}: no name for {c.name} ({name})"
            if lang != "en":
                assert re.search(r"[\u4e00-\u9fff]", text), f"{lang}: {c.name} is not in Chinese: {text!r}"


def test_chinese_city_names_follow_the_boards_spellings() -> None:
    hans, hant = load("zh-Hans")["cities"], load("zh-Hant")["cities"]
    assert isinstance(hans, dict) and isinstance(hant, dict)
    assert hans["Angora"] == hant["Angora"] == "安哥拉"  # the board says Angora, not Ankara
    assert hans["Kobenhavn"] == "哥本哈根" and hans["Danzig"] == "但泽" and hant["Danzig"] == "但澤"
    assert hans["Erzurum"] == "埃尔祖鲁姆" and hant["Erzurum"] == "埃爾祖倫"  # as the two rulebooks write it
    assert hans["Times Square"] == "时代广场" and hant["Times Square"] == "時代廣場"


def test_rulebook_terms() -> None:
    hans, hant = strings("zh-Hans"), strings("zh-Hant")
    assert hans["color.locomotive"] == "彩虹票" and hant["color.locomotive"] == "彩虹票"
    assert "任务牌" in hans["game.tickets"] and "任務牌" in hant["game.tickets"]
    assert "火车站" in hans["game.build_station"] and "火車站" in hant["game.build_station"]
    assert "欧洲特快车" in hans["final.express"] and "歐洲特快車" in hant["final.express"]
    assert "车票" in hans["turn.main"] and "車票" in hant["turn.main"]
