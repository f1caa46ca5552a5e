.rows[1].noise == [null, "beyond"] and .rows[2].spreads == [null, null] and .rows[2].noise == [null, "unknown"]
