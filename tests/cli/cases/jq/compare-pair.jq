(.rows | length) == 2 and all(.rows[]; .values[1] != null)
