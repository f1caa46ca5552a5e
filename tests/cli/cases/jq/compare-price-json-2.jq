[.rows[] | select(.backend == "openblas")][0] | .usd_per_hour == [null, null] and .per_usd_hour == [null, null]
