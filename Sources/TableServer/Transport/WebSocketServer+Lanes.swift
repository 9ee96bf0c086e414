import CWebsockets

#if canImport(Glibc)
  import Glibc
#endif

/// Several service threads (``Lane``): the first accepts every socket and hands every n-th
/// to the next lane in turn, which adopts it into its own context.
///
/// - Important: Each method runs on the service thread of the lane it is called on.
extension WebSocketServer {
  /// The lane the socket just accepted goes to: nil keeps it on this one.
  func laneForNextConnection() -> WebSocketServer? {
    guard !otherLanes.isEmpty else { return nil }
    let turn = nextLane
    nextLane = (nextLane + 1) % (otherLanes.count + 1)
    return turn == 0 ? nil : otherLanes[turn - 1]
  }

  /// The number a socket handed to another lane is admitted under: below every lane's
  /// index, and unique while the descriptor is open.
  static func admission(of descriptor: Int32) -> Int {
    -Int(descriptor) - 1
  }

  /// Hands `copy`, a copy of an accepted socket's descriptor, to `lane`, admitted as
  /// `admission`.
  func handOver(_ copy: Int32, to lane: WebSocketServer, admission: Int) {
    let taken = lane.enqueue { [lane] in lane.adopt(copy, admission: admission) }
    if !taken {
      // That lane has stopped.
      Glibc.close(copy)
      limits.withLock { $0.forget(lane: admission) }
    }
  }

  /// Adopts a socket the first lane accepted and admitted, as if this lane had accepted
  /// it: lws serves its requests and upgrade here from now on.
  private func adopt(_ descriptor: Int32, admission: Int) {
    precondition(isOnServiceThread, "a socket is adopted on its lane's service thread")
    guard let context = serviceContext, let vhost = lws_get_vhost_by_name(context, "default")
    else {
      Glibc.close(descriptor)
      limits.withLock { $0.forget(lane: admission) }
      return
    }
    adoptedAdmission = admission
    let adopted = lws_adopt_socket_vhost(vhost, descriptor)
    if adopted == nil || adoptedAdmission != nil {
      // Not adopted (lws closed the socket), or adopted without the WSI_CREATE that binds it.
      adoptedAdmission = nil
      limits.withLock { $0.forget(lane: admission) }
    }
  }
}
