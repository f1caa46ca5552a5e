[.results[] | .case] == ["h2d pageable 4 KiB", "d2h pageable 4 KiB", "h2d pinned 4 KiB", "d2h pinned 4 KiB"] and all(.results[]; .status == "ok" and .check == "every byte of random data compared")
