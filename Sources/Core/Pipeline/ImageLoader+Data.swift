import Foundation

/// The encoded bytes alone.
extension ImageLoader {
    /// The encoded bytes of `request`'s source, through the data cache and the transport (with retries), shared
    /// with the loads of the same source in flight; nothing is decoded. Throws `ImagoError`.
    public func data(for request: ImageRequest) async throws -> Data {
        do {
            let fetched = try await fetchTasks.value(
                for: FetchWorkKey(request), priority: PriorityBox(request.priority)
            ) { work in
                try await self.fetchBytes(request, work: work)
            }
            return fetched.data
        } catch {
            throw ImagoError.wrapping(error, source: request.sourceString)
        }
    }
}
