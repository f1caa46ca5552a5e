all(.results[] | select(.precision == "fp32" and .status == "ok" and .backend != "host"); (.datasheet.percent - 100 * .gflops / 51000 | fabs) < 1e-9)
