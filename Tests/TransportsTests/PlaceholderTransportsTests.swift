import Testing

@Test func placeholderTransports() {}
