.devices | length == 1 and all(.[]; .check.ok == true and (.type | test("GPU")))
