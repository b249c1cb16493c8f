import Testing

@Test func placeholderCaches() {}
