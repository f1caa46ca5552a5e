[.rows[].backend] == ["openblas"] and .unpaired[0].backend == "clblast" and .unpaired[0].differences == [{"field": "tuned", "values": [false, true]}]
