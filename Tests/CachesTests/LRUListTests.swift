import Testing

@testable import ImagoCaches

@Suite struct LRUListTests {
    @Test func keepsRecencyOrderThroughPromotionsAndRemovals() {
        var list = LRUList<String, Int>()
        for (index, key) in ["a", "b", "c", "d"].enumerated() { list.set(index, for: key, cost: 1, expiry: 0) }
        #expect(list.value(for: "b")?.value == 1)
        #expect(list.keysByRecency == ["b", "d", "c", "a"])
        #expect(list.removeOldest()?.key == "a")
        #expect(list.remove("d") == 3)
        list.set(9, for: "e", cost: 5, expiry: 0)
        #expect(list.keysByRecency == ["e", "b", "c"])
        #expect(list.totalCost == 7)
        #expect(list.count == 3)
    }

    @Test func reusesFreedSlotsAndEmpties() {
        var list = LRUList<Int, Int>()
        for round in 0..<3 {
            for key in 0..<100 { list.set(key + round, for: key, cost: 2, expiry: 0) }
            while list.count > 10 { list.removeOldest() }
            #expect(list.keysByRecency == Array((90..<100).reversed()))
            #expect(list.totalCost == 20)
        }
        list.removeAll()
        #expect(list.count == 0)
        #expect(list.removeOldest() == nil)
        #expect(list.value(for: 95) == nil)
    }
}
