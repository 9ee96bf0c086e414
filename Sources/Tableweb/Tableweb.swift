// `import Tableweb` brings everything an app needs to serve its own lists: the server
// (TablewebServer, TableDataSource, SnapshotDataSource), the model (TableSnapshot, Section,
// Row, CellStyle, AccessoryType, RowEdit, …) and the SQLite store with its data format.
@_exported import TableModel
@_exported import TableServer
@_exported import TableStore
