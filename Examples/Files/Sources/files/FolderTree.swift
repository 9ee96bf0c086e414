import Foundation
import Synchronization
import Tableweb

/// A directory tree as tableweb lists: a list per folder (its path below the root), folders
/// first with a disclosure indicator, then files with their size and date (value1).
final class FolderTree: TableDataSource, Sendable {
  let root: URL
  let groupedByKind: Bool
  /// The folders someone has opened, with what they held then: the watcher compares.
  let seen = Mutex<[String: [String]]>([:])

  init(root: URL, groupedByKind: Bool) {
    self.root = root.standardizedFileURL
    self.groupedByKind = groupedByKind
  }

  func rootList() throws(ProtocolError) -> String { "/" }

  func snapshot(of list: String) throws(ProtocolError) -> TableSnapshot {
    let entries = try contents(of: list)
    seen.withLock { $0[list] = Self.signature(entries) }
    let rows = entries.map { entry in
      entry.isFolder
        ? Row(id: entry.name, text: entry.name, accessory: .disclosureIndicator)
        : Row(id: entry.name, style: .value1, text: entry.name, detail: entry.detail)
    }
    let sections =
      groupedByKind
      ? [
        Section(id: "folders", header: "Folders", rows: rows.filter { $0.accessory != .none }),
        Section(id: "files", header: "Files", rows: rows.filter { $0.accessory == .none }),
      ]
      : [Section(id: "all", rows: rows)]
    let title = list == "/" ? root.lastPathComponent : (list as NSString).lastPathComponent
    return TableSnapshot(
      list: list, title: title, style: .insetGrouped, sections: sections)
  }

  /// Only folders below the root: a list id with `..`, or a symbolic link that leads
  /// elsewhere, is refused before anything is read (`not_allowed`, as for a list not shown).
  func canRead(_ list: String, for identity: AccessIdentity?) -> Bool {
    folder(of: list) != nil
  }

  func destination(ofRow row: String, in list: String) throws(ProtocolError) -> String? {
    guard try contents(of: list).first(where: { $0.name == row })?.isFolder == true else {
      return nil
    }
    return list == "/" ? "/" + row : list + "/" + row
  }

  /// The folders whose contents changed since they were last read.
  func changedFolders() -> [String] {
    let folders = seen.withLock { $0 }
    return folders.compactMap { list, before in
      let now = (try? contents(of: list)).map(Self.signature)
      return now == before ? nil : list
    }
  }

  struct Entry {
    var name: String
    var isFolder: Bool
    var detail: String
  }

  /// The folder list `list` names (`/`, `/a/b`), symbolic links resolved; nil when that is
  /// not the root or a folder below it.
  private func folder(of list: String) -> URL? {
    guard list != "/" else { return root }
    let names = list.split(separator: "/", omittingEmptySubsequences: false)
    guard names.count >= 2, names[0].isEmpty,
      names.dropFirst().allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." })
    else { return nil }
    let realRoot = root.resolvingSymlinksInPath().path
    let folder = root.appendingPathComponent(String(list.dropFirst())).resolvingSymlinksInPath()
    let base = realRoot.hasSuffix("/") ? realRoot : realRoot + "/"
    guard folder.path.hasPrefix(base) else { return nil }
    return folder
  }

  private func contents(of list: String) throws(ProtocolError) -> [Entry] {
    guard let folder = folder(of: list) else { throw ProtocolError(.notFound, "no folder \(list)") }
    let keys: [URLResourceKey] = [.isDirectoryKey, .fileSizeKey, .contentModificationDateKey]
    let urls: [URL]
    do {
      urls = try FileManager.default.contentsOfDirectory(
        at: folder, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
    } catch {
      throw ProtocolError(.notFound, "no folder \(list)")
    }
    return urls.map { url in
      let values = try? url.resourceValues(forKeys: Set(keys))
      let size = ByteCountFormatter.string(
        fromByteCount: Int64(values?.fileSize ?? 0), countStyle: .file)
      let date = (values?.contentModificationDate ?? .distantPast).formatted(
        date: .abbreviated, time: .shortened)
      return Entry(
        name: url.lastPathComponent, isFolder: values?.isDirectory == true,
        detail: "\(size), \(date)")
    }.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
  }

  private static func signature(_ entries: [Entry]) -> [String] {
    entries.map { "\($0.name)|\($0.isFolder)|\($0.detail)" }
  }
}
