.prices | test("given by the user")
