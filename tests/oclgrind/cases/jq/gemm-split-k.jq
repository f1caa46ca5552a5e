.results[0].kernel | test("^gpu tiles: .* split-K=2$")
