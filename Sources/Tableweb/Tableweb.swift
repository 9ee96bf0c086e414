// `import Tableweb` brings what an app needs to serve its own lists, named one by one (the
// list docs/swift-api.md describes), not the modules behind it: the session core, the
// transport and the store's SQL stay out of an app's namespace. Members and conformances of
// these types come with them. An app that wants the protocol's messages or the differ
// imports the `TableModel` product too.

@_exported import enum TableModel.AccessRole
@_exported import enum TableModel.AccessoryType
@_exported import enum TableModel.CellControl
@_exported import enum TableModel.CellStyle
@_exported import struct TableModel.CellTemplate
@_exported import enum TableModel.EditingStyle
@_exported import enum TableModel.ErrorCode
@_exported import struct TableModel.HistoryEntry
@_exported import struct TableModel.HistoryMessage
@_exported import struct TableModel.NavigationLevel
@_exported import struct TableModel.NavigationStack
@_exported import struct TableModel.Presence
@_exported import struct TableModel.ProtocolError
@_exported import struct TableModel.Row
@_exported import struct TableModel.RowAction
@_exported import enum TableModel.RowEdit
@_exported import enum TableModel.RowEditError
@_exported import struct TableModel.SearchQuery
@_exported import struct TableModel.Section
@_exported import enum TableModel.SelectionMode
@_exported import struct TableModel.TableChange
@_exported import struct TableModel.TableIndexPath
// The model: what a list is made of, and how a change is told (TableModel).
@_exported import struct TableModel.TableSnapshot
@_exported import enum TableModel.TableStyle
@_exported import enum TableServer.AccessDecision
@_exported import struct TableServer.AccessIdentity
@_exported import protocol TableServer.Authenticator
@_exported import protocol TableServer.ChangeLogReading
@_exported import struct TableServer.DataSourceCapabilities
@_exported import enum TableServer.GroupCommitFailure
@_exported import protocol TableServer.GroupCommitting
@_exported import struct TableServer.ListPrefix
@_exported import class TableServer.MemorySessionStorage
@_exported import protocol TableServer.SearchReader
@_exported import struct TableServer.SessionServerConfiguration
@_exported import protocol TableServer.SessionStorage
@_exported import struct TableServer.SessionToken
@_exported import class TableServer.SnapshotDataSource
@_exported import class TableServer.StoreAuthenticator
@_exported import class TableServer.StoreDataSource
@_exported import protocol TableServer.TableDataSource
@_exported import enum TableServer.TableEdit
// The server and what an app adopts or hands it (TableServer).
@_exported import class TableServer.TablewebServer
@_exported import enum TableServer.TransportError
@_exported import struct TableServer.UpgradeRequest
@_exported import protocol TableServer.WindowedDataSource
@_exported import enum TableStore.AccessCredential
@_exported import struct TableStore.AccessGrant
@_exported import struct TableStore.AppAction
@_exported import struct TableStore.AppFile
@_exported import struct TableStore.AppRow
@_exported import struct TableStore.AppScreen
@_exported import struct TableStore.AppSection
@_exported import struct TableStore.ChangeAuthor
@_exported import struct TableStore.ShowWhen
// The store behind `tableweb serve`, and its data format (TableStore).
@_exported import class TableStore.Store
@_exported import enum TableStore.StoreError
