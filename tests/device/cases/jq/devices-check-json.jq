all(.devices[]; .check.ok == true)
