"""Examples/Hello in Chromium: the page built into the library shows the app's list, and
what the app's code changes appears without a reload."""
from page_helpers import browser, new_page  # noqa: F401 (fixtures)
from test_examples import start_hello


def test_the_page_shows_a_row_the_app_added(browser):
    with start_hello() as address:
        with new_page(browser, address.url) as page:
            page.wait_for_selector(".cell[data-id='Cherries']")
            assert page.locator(".nav-title").text_content() == "Fruit"
            page.wait_for_selector(".cell[data-id='Dates']", timeout=8000)
