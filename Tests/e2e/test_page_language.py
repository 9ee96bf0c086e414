"""The page's own words in the person's language, and right-to-left languages mirrored as
UIKit mirrors them. The language is the data's (`screen.language`), else the browser's
(`navigator.language`, which a context's `locale` sets)."""
import pytest
from playwright.sync_api import expect

import engines
from page_helpers import (  # noqa: F401 (fixtures)
    Server, answered, browser, cell, drill, go_back, new_page, open_app, serving, swipe)

# What iOS says in each language: Edit, Done, Delete (the toolbar's, in editing mode),
# Cancel (beside the search field), Search (its placeholder) and Back (the back button's
# label when the previous title does not fit; here in its spoken name).
WORDS = {
    "en": ("Edit", "Done", "Delete", "Cancel", "Search", "Back"),
    "de": ("Bearbeiten", "Fertig", "Löschen", "Abbrechen", "Suchen", "Zurück"),
    "fr": ("Modifier", "OK", "Supprimer", "Annuler", "Rechercher", "Retour"),
    "es": ("Editar", "OK", "Eliminar", "Cancelar", "Buscar", "Volver"),
    "it": ("Modifica", "Fine", "Elimina", "Annulla", "Cerca", "Torna"),
    "pt-BR": ("Editar", "OK", "Apagar", "Cancelar", "Buscar", "Voltar"),
    "nl": ("Wijzig", "Gereed", "Verwijder", "Annuleer", "Zoek", "Terug"),
    "sv": ("Redigera", "Klar", "Radera", "Avbryt", "Sök", "Tillbaka"),
    "ru": ("Изменить", "Готово", "Удалить", "Отменить", "Поиск", "Назад"),
    "ja": ("編集", "完了", "削除", "キャンセル", "検索", "戻る"),
    "zh-CN": ("编辑", "完成", "删除", "取消", "搜索", "返回"),
    "ko": ("편집", "완료", "삭제", "취소", "검색", "돌아가기"),
    "ar": ("تحرير", "تم", "حذف", "إلغاء", "بحث", "رجوع"),
    "he": ("עריכה", "סיום", "מחיקה", "ביטול", "חיפוש", "חזרה"),
}
RTL = {"ar", "he"}

server = serving(None)  # the demo app, whose data names no language

MIRRORED = {"title": "אנשים", "language": "he", "style": "plain", "editable": True, "sections": [{"id": "s", "rows": [
    {"id": f"p{i}", "text": name, "detail": None, "accessory": "disclosure",
     "children": {"title": name, "style": "insetGrouped", "sections": [
         {"id": f"d{i}", "rows": [{"id": f"d{i}-phone", "text": "טלפון", "detail": "050-000000", "style": "value1"}]}]}}
    for i, name in enumerate(["אבי", "בתיה", "גלעד", "דנה", "הדס"])]},
    {"id": "more", "rows": [{"id": "index", "text": "אינדקס", "accessory": "disclosure", "children": {
        "title": "אינדקס", "index": True, "sections": [{"id": "i", "rows": [
            {"id": f"n{i}", "text": t} for i, t in enumerate(["Anna", "Boris", "Carla", "David", "Eve", "Frank"])]}]}}]}],
    "actions": [{"id": "flag", "title": "דגל", "edge": "leading", "color": "orange", "effect": "flag"},
                {"id": "delete", "title": "מחיקה", "edge": "trailing", "color": "red", "effect": "delete"}]}


@pytest.fixture(scope="module", params=[e for e in engines.ENGINES if e == "chromium"])
def engine(request):
    """Chromium alone: a context's locale is Playwright's."""
    return request.param


def document_language(page):
    return page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]")


@pytest.mark.parametrize("locale", WORDS)
def test_the_pages_words_follow_the_browsers_language(browser, server, locale):
    edit, done, delete, cancel, search, back = WORDS[locale]
    page = open_app(browser, server, locale=locale)
    try:
        assert document_language(page) == [locale, "rtl" if locale in RTL else "ltr"]
        drill(page, "root-contacts", "Contacts")
        field = page.locator(".searchbar input")
        expect(field).to_have_attribute("placeholder", search)  # once its table has loaded
        expect(field).to_have_attribute("aria-label", search)
        assert back in page.locator(".nav-back").get_attribute("aria-label")
        field.focus()
        expect(page.locator(".search-cancel")).to_have_text(cancel)
        page.locator(".search-cancel").click()
        go_back(page, "tableweb")
        drill(page, "root-tasks", "Tasks")
        expect(page.locator(".nav-edit")).to_have_text(edit)
        answered(page, page.locator(".nav-edit").click)
        expect(page.locator(".nav-edit")).to_have_text(done)
        expect(page.locator(".tb-delete")).to_have_text(delete)
        cell(page, "task-later-0").click()
        assert page.locator(".tb-delete").text_content().startswith(delete)
        assert page.errors == []
    finally:
        page.close_context()


def test_the_datas_language_wins_over_the_browsers(browser, server):
    page = open_app(browser, server, locale="de-DE")
    try:
        assert document_language(page) == ["de-DE", "ltr"]  # the demo's root names no language
        drill(page, "root-hebrew", "אנשי קשר")  # a screen with "language": "he"
        assert document_language(page) == ["he", "rtl"]
        expect(page.locator(".nav-edit")).to_have_text(WORDS["he"][0])
        expect(page.locator(".searchbar input")).to_have_attribute("placeholder", WORDS["he"][4])
        strip = page.locator(".index-strip").bounding_box()
        assert strip["x"] + strip["width"] < 40
        go_back(page, "tableweb")
        assert document_language(page) == ["de-DE", "ltr"]
        assert page.errors == []
    finally:
        page.close_context()


@pytest.fixture(scope="module")
def hebrew(engine):
    s = Server(MIRRORED)
    yield s
    s.close()


def box(locator):
    return locator.bounding_box()


def test_a_hebrew_list_is_mirrored(browser, hebrew):
    page = open_app(browser, hebrew, locale="en-US")  # the data's language, not the browser's
    try:
        width = page.viewport_size["width"]
        assert document_language(page) == ["he", "rtl"]
        row = box(cell(page, "p0"))
        text = box(cell(page, "p0").locator(".text"))
        chev = box(cell(page, "p0").locator(".accessory .chev"))
        assert chev["x"] + chev["width"] < row["x"] + 40  # the chevron at the left end
        assert text["x"] + text["width"] > row["x"] + row["width"] - 20  # the text from the right
        # …pointing left, where the next screen comes from.
        assert page.evaluate("() => new DOMMatrix(getComputedStyle(document.querySelector('.accessory .chev')).transform).a") < 0
        edit = box(page.locator(".nav-edit"))
        assert edit["x"] + edit["width"] < width / 2  # Edit at the left of the bar

        # A push slides the new screen in from the left, as UIKit's does in Hebrew.
        page.evaluate("""() => { window.slides = []; document.addEventListener('transitionrun', (e) => {
            if (e.propertyName === 'transform' && e.target.matches('.page'))
                window.slides.push(e.target.getAnimations().find((a) => a.transitionProperty === 'transform')
                    ?.effect.getKeyframes()[0].transform ?? 'none'); }); }""")
        drill(page, "p1", "בתיה")
        starts = page.evaluate("() => window.slides")
        assert "translateX(-100%)" in starts, starts  # from its full width to the left
        back = box(page.locator(".nav-back"))
        assert back["x"] > width / 2  # the back button at the right
        chev = box(page.locator(".nav-back .chev"))
        label = box(page.locator(".nav-back .label"))
        assert chev["x"] > label["x"]  # its chevron at its right end…
        assert page.evaluate("() => new DOMMatrix(getComputedStyle(document.querySelector('.nav-back .chev')).transform).a") < 0
        go_back(page, "אנשים")  # …pointing right

        # Leading actions come from the right (a swipe leftwards), trailing ones from the left.
        swipe(page, "p2", -150)
        buttons = cell(page, "p2").locator(".swipe-actions.leading button")
        buttons.first.wait_for()
        content = box(cell(page, "p2").locator(".content"))
        assert buttons.all_text_contents() == ["דגל"]
        assert box(buttons.first)["x"] >= content["x"] + content["width"] - 1
        page.locator(".nav-title").click()
        page.wait_for_timeout(300)
        swipe(page, "p3", 150)
        buttons = cell(page, "p3").locator(".swipe-actions.trailing button")
        buttons.first.wait_for()
        content = box(cell(page, "p3").locator(".content"))
        assert buttons.all_text_contents() == ["מחיקה"]
        b = box(buttons.first)
        assert b["x"] + b["width"] <= content["x"] + 1
        page.locator(".nav-title").click()
        page.wait_for_timeout(300)

        cell(page, "p4").focus()
        page.keyboard.press("Shift+F10")  # the context menu, by key: at the row's leading (right) end
        menu = box(page.locator(".menu"))
        assert menu["x"] + menu["width"] > width - 40 and menu["x"] + menu["width"] <= width
        page.keyboard.press("Escape")

        # Editing: the delete control at the right, the reorder control at the left.
        answered(page, page.locator(".nav-edit").click)
        minus = box(cell(page, "p0").locator(".minus"))
        handle = box(cell(page, "p0").locator(".reorder"))
        assert minus["x"] > row["x"] + row["width"] / 2
        assert handle["x"] + handle["width"] < row["x"] + row["width"] / 2
        answered(page, page.locator(".nav-edit").click)

        drill(page, "index", "אינדקס")
        strip = box(page.locator(".index-strip"))
        assert strip["x"] + strip["width"] < 40  # the index strip at the left edge
        assert page.errors == []
    finally:
        page.close_context()
