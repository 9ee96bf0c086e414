/// Who sees what: the sessions whose top screen shows each list, kept as an index so that
/// a change finds its viewers without looking at every session.
extension SessionServer {
  /// The connections of sessions whose top screen shows `list`.
  public func viewers(of list: String) -> [ConnectionID] {
    guard let audience = audiences[list] else { return [] }
    return audience.flatMap { sessions[$0]!.connections }
  }

  /// The sessions whose top screen shows `list`.
  func sessions(showing list: String) -> [Session] {
    audiences[list].map { $0.map { sessions[$0]! } } ?? []
  }

  func isShown(_ list: String) -> Bool { audiences[list] != nil || sidebarAudiences[list] != nil }

  /// Records `session` as it now is.
  mutating func keep(_ session: Session) {
    if let old = sessions[session.token], old.topList != session.topList {
      leaveAudience(of: old.topList, session.token)
      stopWatchingHistory(of: old.topList, session.token)
    }
    if let old = sessions[session.token], let beside = old.sidebarList,
      beside != session.sidebarList
    {
      leaveSidebar(of: beside, session.token)
    }
    sessions[session.token] = session
    if audiences[session.topList, default: []].insert(session.token).inserted {
      presence.changed.insert(session.topList)
    }
    if let beside = session.sidebarList,
      sidebarAudiences[beside, default: []].insert(session.token).inserted
    {
      presence.changed.insert(beside)
    }
    endActivityOffScreen(session.token)
  }

  /// Forgets an open session (its stack stays in storage).
  mutating func drop(_ token: SessionToken) {
    guard let old = sessions.removeValue(forKey: token) else { return }
    leaveAudience(of: old.topList, token)
    stopWatchingHistory(of: old.topList, token)
    if let beside = old.sidebarList { leaveSidebar(of: beside, token) }
    endActivityOffScreen(token)
    let open = sessions
    presence.left(token) { open[$0] != nil }
  }

  private mutating func leaveSidebar(of list: String, _ token: SessionToken) {
    if sidebarAudiences[list]?.remove(token) != nil { presence.changed.insert(list) }
    if sidebarAudiences[list]?.isEmpty == true { sidebarAudiences[list] = nil }
  }

  private mutating func leaveAudience(of list: String, _ token: SessionToken) {
    if audiences[list]?.remove(token) != nil { presence.changed.insert(list) }
    if audiences[list]?.isEmpty == true { audiences[list] = nil }
  }
}
