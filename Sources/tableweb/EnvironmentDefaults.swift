import ArgumentParser
import Foundation

/// `serve`'s settings from the environment (`TABLEWEB_PORT`, `TABLEWEB_DB`, …): a flag on
/// the command line wins, then the variable, then the default.
struct EnvironmentDefaults {
  var variables: [String: String] = ProcessInfo.processInfo.environment

  func string(_ flag: String?, _ name: String, default value: String) -> String {
    flag ?? variables[name] ?? value
  }

  func optionalString(_ flag: String?, _ name: String) -> String? {
    flag ?? variables[name].flatMap { $0.isEmpty ? nil : $0 }
  }

  func int(_ flag: Int?, _ name: String, default value: Int) throws -> Int {
    if let flag { return flag }
    guard let text = variables[name] else { return value }
    guard let number = Int(text.trimmingCharacters(in: .whitespaces)) else {
      throw ValidationError("\(name)=\(text) is not a whole number")
    }
    return number
  }

  func optionalInt(_ flag: Int?, _ name: String) throws -> Int? {
    guard flag == nil, variables[name] != nil else { return flag }
    return try int(nil, name, default: 0)
  }

  /// A flag given is true; otherwise `1`, `true`, `yes`, `on` turn it on and `0`, `false`,
  /// `no`, `off` or nothing leave it off.
  func bool(_ flag: Bool, _ name: String) throws -> Bool {
    if flag { return true }
    guard let text = variables[name]?.lowercased() else { return false }
    switch text {
    case "1", "true", "yes", "on": return true
    case "", "0", "false", "no", "off": return false
    default: throw ValidationError("\(name)=\(text) is not a yes/no value (1/0, true/false)")
    }
  }

  /// A comma-separated list.
  func list(_ flag: [String], _ name: String) -> [String] {
    if !flag.isEmpty { return flag }
    return (variables[name] ?? "").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }
  }
}
