[.rows[] | select(.backend == "clblast")][0] | .usd_per_hour == [2, 2] and (.per_usd_hour[0] - 3.97026587 | fabs) < 1e-6 and (.per_usd_hour[1] - 3.176212695 | fabs) < 1e-6
