.unpaired[0].differences == [{"field": "stat", "values": ["median", "best"]}] and .regressions == 3 and .within_noise == 1
