// What a database library an app also uses declares (GRDB's names): an app that imports it
// with Tableweb must be able to write them unqualified. (`JSONValue`, as JSON libraries
// name theirs: Tableweb leaves the protocol's own JSON types in TableModel.)
public final class Database { public init() {} }
public final class Statement { public init() {} }
public enum DatabaseValue { case null }
public struct Session { public init() {} }
public struct Configuration { public init() {} }
public enum JSONValue { case null }
