import Testing

@Test func placeholderImago() {}
