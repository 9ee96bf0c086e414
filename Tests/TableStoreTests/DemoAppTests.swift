import Foundation
import StoreTestSupport
import TableModel
import Testing

@testable import TableDemo
@testable import TableStore

@Suite struct DemoAppTests {
  @Test(arguments: StoreKind.allCases)
  func demoHasEveryScreenTheIssueAsksFor(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind)
    let store = try Store.openOrCreateDemo(path: temporary.path)
    let root = try store.snapshot(of: try store.rootList())
    #expect(root.style == .grouped)

    let contacts = try store.snapshot(of: "contacts")
    #expect(contacts.indexTitles?.count == 27)
    #expect(contacts.numberOfRows >= 500)
    #expect(contacts.sections.flatMap(\.rows).allSatisfy { $0.style == .subtitle })
    let person = contacts.sections.first { !$0.rows.isEmpty }!.rows[0]
    let card = try #require(try store.childList(ofRow: person.id, in: "contacts"))
    #expect(
      try store.snapshot(of: card).sections.flatMap(\.rows).allSatisfy { $0.style == .value2 })

    // Date & Time: turning Set Automatically off reveals Time Zone and Set Date & Time.
    let before = try store.snapshot(of: "date-time")
    #expect(before.sections[1].rows.map(\.id) == ["date-time-auto"])
    let change = try store.setSwitch("date-time-auto", in: "date-time", isOn: false)
    var after = before
    try after.apply(try #require(change.lists[0].edits))
    after.version += 1
    #expect(after == (try store.snapshot(of: "date-time")))
    #expect(
      after.sections[1].rows.map(\.id) == ["date-time-auto", "date-time-zone", "date-time-manual"])
    let zoneRow = after.sections[1].rows[1]
    #expect(zoneRow.detail != nil)  // the checked time zone's name
    #expect(try store.snapshot(of: "time-zones").sections.count > 5)

    let ringtone = try store.snapshot(of: "sounds").sections[1].rows[0]
    #expect(ringtone.detail == "Marimba")
    #expect(try store.snapshot(of: "tasks").isEditable)
    #expect(try store.snapshot(of: "repeat").selection == .multiple)
    let world = try store.snapshot(of: "world")
    #expect(world.numberOfRows >= 5)

    // Opening again keeps the data.
    _ = try store.select("ringtone-0", in: "ringtone")
    let reopened = try Store.openOrCreateDemo(path: temporary.path)
    #expect(try reopened.snapshot(of: "sounds").sections[1].rows[0].detail == "Apex")
  }
}
