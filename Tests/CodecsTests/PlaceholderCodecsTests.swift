import Testing

@Test func placeholderCodecs() {}
