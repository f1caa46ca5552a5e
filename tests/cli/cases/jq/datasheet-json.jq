.schema == "clbench-datasheet/1" and (.accelerators | length == 2) and all(.accelerators[]; .name | test("A100 SXM4"))
