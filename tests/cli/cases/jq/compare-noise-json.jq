.rows[0] | .stat == "median" and .noise == [null, "within"] and (.spreads[1][1] - 102.0408 | fabs) < 1e-3 and (.spreads[0][0] - 96.1538 | fabs) < 1e-3
