split("\n") | length == 5 and (.[1] | startswith("host,host CPU,openblas,fp32,24,24,24,ok"))
