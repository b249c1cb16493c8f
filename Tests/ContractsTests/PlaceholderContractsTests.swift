import Testing

@Test func placeholderContracts() {}
