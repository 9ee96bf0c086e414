import Testing

@testable import TableServer

/// The presence book's memory of sessions that left is bounded: sessions that come and go
/// cannot grow it without end, and one that comes back in time keeps its guest number.
@Suite struct PresenceBookTests {
  @Test func closedSessionsAreRememberedUpToTheLimit() {
    var book = PresenceBook()
    let limit = PresenceBook.retiredLimit
    let tokens = (0..<(limit + 100)).map { SessionToken(rawValue: "s\($0)") }
    for token in tokens {
      book.arrived(token, isNameless: true)
      book.left(token) { _ in false }
    }
    #expect(book.guestNumbers.count == limit)
    #expect(book.arrivals.count == limit)
    #expect(book.guestNumbers[tokens[0]] == nil)
    #expect(book.guestNumbers[tokens.last!] == limit + 100)
  }

  @Test func aSessionThatCameBackKeepsItsNumber() {
    var book = PresenceBook()
    let first = SessionToken(rawValue: "back")
    book.arrived(first, isNameless: true)
    book.left(first) { _ in false }
    for index in 0..<PresenceBook.retiredLimit {
      let token = SessionToken(rawValue: "other\(index)")
      book.arrived(token, isNameless: true)
      book.left(token) { $0 == first }
    }
    #expect(book.guestNumbers[first] == 1)
  }
}
