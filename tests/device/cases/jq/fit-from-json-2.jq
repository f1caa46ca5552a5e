.speed.formulas | (.prefill | test("2 x 6.74 B")) and (.decode | test("weights 13.5 GB")) and (.train | test("6 x 6.74 B"))
