/// Entries kept in least-recently-used order with O(1) lookup, insertion, promotion and eviction.
///
/// A doubly linked list threaded through an array (indices instead of references, so no per-node allocation and
/// no reference counting), plus a dictionary from key to index. Not thread-safe: the owner keeps it under a lock.
struct LRUList<Key: Hashable, Value> {
    struct Node {
        var key: Key
        var value: Value?
        var cost: Int
        var expiry: Double
        var older: Int
        var newer: Int
    }

    private var nodes: [Node] = []
    private var freeIndices: [Int] = []
    private var index: [Key: Int] = [:]
    /// The most recently used node, or -1.
    private var newest = -1
    /// The least recently used node, or -1.
    private var oldest = -1

    /// The sum of the costs of every entry.
    private(set) var totalCost = 0

    /// How many entries there are.
    var count: Int { index.count }

    /// The value for `key` and its expiry, marking it the most recently used.
    mutating func value(for key: Key) -> (value: Value, expiry: Double)? {
        guard let position = index[key], let value = nodes[position].value else { return nil }
        promote(position)
        return (value, nodes[position].expiry)
    }

    /// Inserts or replaces the value for `key`, as the most recently used.
    mutating func set(_ value: Value, for key: Key, cost: Int, expiry: Double) {
        if let position = index[key] {
            totalCost += cost - nodes[position].cost
            nodes[position].value = value
            nodes[position].cost = cost
            nodes[position].expiry = expiry
            promote(position)
            return
        }
        let node = Node(key: key, value: value, cost: cost, expiry: expiry, older: newest, newer: -1)
        let position: Int
        if let reused = freeIndices.popLast() {
            nodes[reused] = node
            position = reused
        } else {
            nodes.append(node)
            position = nodes.count - 1
        }
        if newest >= 0 { nodes[newest].newer = position }
        newest = position
        if oldest < 0 { oldest = position }
        index[key] = position
        totalCost += cost
    }

    /// Removes the entry for `key`; returns its value, if there was one.
    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let position = index[key] else { return nil }
        let value = nodes[position].value
        unlink(position)
        release(position)
        return value
    }

    /// Removes the least recently used entry; returns its key and value.
    @discardableResult
    mutating func removeOldest() -> (key: Key, value: Value)? {
        guard oldest >= 0, let value = nodes[oldest].value else { return nil }
        let position = oldest
        let key = nodes[position].key
        unlink(position)
        release(position)
        return (key, value)
    }

    /// Removes every entry.
    mutating func removeAll() {
        self = LRUList()
    }

    /// The keys from the most to the least recently used (for tests and debugging).
    var keysByRecency: [Key] {
        var keys: [Key] = []
        var position = newest
        while position >= 0 {
            keys.append(nodes[position].key)
            position = nodes[position].older
        }
        return keys
    }

    private mutating func promote(_ position: Int) {
        guard position != newest else { return }
        unlink(position)
        nodes[position].older = newest
        nodes[position].newer = -1
        if newest >= 0 { nodes[newest].newer = position }
        newest = position
        if oldest < 0 { oldest = position }
    }

    private mutating func unlink(_ position: Int) {
        let (older, newer) = (nodes[position].older, nodes[position].newer)
        if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
        if newer >= 0 { nodes[newer].older = older } else { newest = older }
        nodes[position].older = -1
        nodes[position].newer = -1
    }

    private mutating func release(_ position: Int) {
        index[nodes[position].key] = nil
        totalCost -= nodes[position].cost
        nodes[position].value = nil
        nodes[position].cost = 0
        freeIndices.append(position)
    }
}
