(.results | length == 20) and all(.results[]; .status == "ok" and (.check | test("every byte")))
