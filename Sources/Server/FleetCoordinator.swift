import Imago

/// Short leases shared by the processes of a fleet: whoever holds `name` does the work (a render, a source fetch)
/// while the others wait for its result. `RedisLease` is the built-in one; plug another (etcd, a database) into
/// `ServeFleet(settings:coordinator:)`.
///
/// Every call throws when the coordinator cannot answer in its own bounded time: the server then works alone.
public protocol FleetCoordinator: Sendable {
    /// Takes the lease `name` for `milliseconds`: a new owner token, or `nil` while another owner holds it.
    func acquire(_ name: String, milliseconds: Int) async throws -> String?
    /// Extends the lease to `milliseconds` from now if `token` still owns it; whether it did.
    func renew(_ name: String, token: String, milliseconds: Int) async throws -> Bool
    /// Releases the lease if `token` still owns it (compare and delete); whether it did.
    @discardableResult func release(_ name: String, token: String) async throws -> Bool
}

extension RedisLease: FleetCoordinator {}
