import Testing
@testable import TableServer
