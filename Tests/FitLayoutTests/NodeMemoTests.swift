import Testing

@testable import FitLayout

/// The layout memo answers what a dictionary keyed by node, proposal and scale would.
@Suite struct NodeMemoTests {
    private func key(_ node: Int, width: Double?, height: Double? = nil, scale: Double = 1) -> MemoKey {
        MemoKey(node, ProposedSize(width: width, height: height), scale: scale)
    }

    @Test func answersPerNodeProposalAndScale() {
        var memo = NodeMemo<Double>(nodes: 3)
        memo.set(1, for: key(0, width: 0))
        memo.set(2, for: key(0, width: nil))
        memo.set(3, for: key(0, width: .infinity))
        memo.set(4, for: key(1, width: 0))
        memo.set(5, for: key(0, width: 0, scale: 0.5))
        memo.set(6, for: key(0, width: 0, height: 0))
        #expect(memo.value(for: key(0, width: 0)) == 1)
        #expect(memo.value(for: key(0, width: nil)) == 2)
        #expect(memo.value(for: key(0, width: .infinity)) == 3)
        #expect(memo.value(for: key(1, width: 0)) == 4)
        #expect(memo.value(for: key(0, width: 0, scale: 0.5)) == 5)
        #expect(memo.value(for: key(0, width: 0, height: 0)) == 6)
        #expect(memo.value(for: key(2, width: 0)) == nil)
        #expect(memo.value(for: key(1, width: nil)) == nil)
        // -0 and 0 are different bit patterns, as they were as dictionary keys.
        #expect(memo.value(for: key(0, width: -0.0)) == nil)
    }

    /// Past the chain's length a node's answers go to the overflow table; every one is still
    /// found, and a later answer for a key replaces the earlier one, in the chain or past it.
    @Test func aNodeAskedAboutManyProposalsKeepsEveryAnswer() {
        var memo = NodeMemo<Int>(nodes: 2)
        let count = NodeMemo<Int>.chainLimit * 4
        for width in 0..<count { memo.set(width, for: key(1, width: Double(width))) }
        for width in 0..<count { #expect(memo.value(for: key(1, width: Double(width))) == width) }
        #expect(memo.value(for: key(1, width: Double(count))) == nil)
        #expect(memo.value(for: key(0, width: 0)) == nil)
        memo.set(-1, for: key(1, width: 0))  // in the chain
        memo.set(-2, for: key(1, width: Double(count - 1)))  // in the overflow
        #expect(memo.value(for: key(1, width: 0)) == -1)
        #expect(memo.value(for: key(1, width: Double(count - 1))) == -2)
    }
}
