import Testing
@testable import TableStore
