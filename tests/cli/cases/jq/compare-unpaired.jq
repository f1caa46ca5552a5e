[.rows[] | select(.backend == "clblast")] | all(.[]; .values[1] == null)
