all(.rows[]; .ratios == [1, 1]) and (.rows | length) == 2
