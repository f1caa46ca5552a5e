.speed.prices == "prices: given by the user (--price/--prices), USD per hour; not measured" and (.speed.run_cost_clock | test("timed calls"))
