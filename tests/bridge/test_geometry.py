"""Where the window opens: sized from the screen, remembered, and never off-screen (pure functions)."""

from __future__ import annotations

import json

from bridge.geometry import Rect, WindowState, clamp, default_rect, fit, minimum_size

LAPTOP_768 = Rect(0, 0, 1366, 740)  # a 1366×768 screen less a 28-pixel panel
FULL_HD = Rect(0, 0, 1920, 1050)
SECOND_ON_THE_RIGHT = Rect(1920, 0, 2560, 1400)


def test_a_first_window_takes_80_percent_of_a_small_screen_and_fits_inside_it():
    rect = default_rect(LAPTOP_768)

    assert (rect.width, rect.height) == (1092, 600)  # 80 % of 1366; 80 % of 740 is 592, raised to 600
    assert rect.x >= 0 and rect.right <= 1366 and rect.bottom <= 740


def test_a_first_window_on_a_big_screen_stops_at_1280_by_820_and_is_centred():
    assert default_rect(FULL_HD) == Rect(320, 115, 1280, 820)


def test_a_screen_smaller_than_the_minimum_gets_the_whole_screen_not_a_window_hanging_off_it():
    tiny = Rect(0, 0, 800, 560)

    assert minimum_size(tiny) == (800, 560)
    assert default_rect(tiny) == Rect(0, 0, 800, 560)


def test_a_remembered_place_that_is_still_on_screen_is_kept_exactly():
    saved = Rect(100, 60, 1000, 650)

    assert fit(saved, [FULL_HD]) == saved


def test_a_window_remembered_on_a_monitor_that_is_gone_comes_back_to_the_primary_screen():
    on_the_unplugged_monitor = Rect(2200, 100, 1200, 800)

    assert fit(on_the_unplugged_monitor, [FULL_HD]) == default_rect(FULL_HD)


def test_a_window_remembered_on_the_second_monitor_reopens_there():
    saved = Rect(2300, 200, 1200, 800)

    assert fit(saved, [FULL_HD, SECOND_ON_THE_RIGHT]) == saved


def test_a_window_half_off_the_right_edge_is_moved_back_inside_the_screen():
    saved = Rect(1500, 100, 1000, 700)

    assert fit(saved, [FULL_HD]) == Rect(920, 100, 1000, 700)


def test_a_big_remembered_window_shrinks_to_a_smaller_screen_after_a_move_to_a_laptop():
    saved = Rect(0, 0, 1900, 1040)

    assert fit(saved, [LAPTOP_768]) == Rect(0, 0, 1366, 740)


def test_a_title_bar_above_the_screen_is_brought_down_where_it_can_be_grabbed():
    saved = Rect(200, -500, 1000, 700)

    assert fit(saved, [FULL_HD]) == default_rect(FULL_HD)
    assert clamp(saved, FULL_HD).y == 0


def test_a_remembered_window_below_the_minimum_is_raised_to_it():
    assert fit(Rect(10, 10, 300, 200), [FULL_HD]) == Rect(10, 10, 900, 600)


def test_no_screen_information_still_opens_a_window():
    assert fit(None, []) == Rect(0, 0, 1280, 820)


def test_the_state_round_trips_and_a_damaged_file_is_a_first_launch(tmp_path):
    WindowState(Rect(5, 6, 1000, 700), tray_notice_shown=True).save(tmp_path)

    again = WindowState.load(tmp_path)
    assert again.rect == Rect(5, 6, 1000, 700) and again.tray_notice_shown is True

    (tmp_path / "window.json").write_text("{not json")
    assert WindowState.load(tmp_path) == WindowState()
    (tmp_path / "window.json").write_text(json.dumps({"rect": {"x": 1}}))
    assert WindowState.load(tmp_path).rect is None
