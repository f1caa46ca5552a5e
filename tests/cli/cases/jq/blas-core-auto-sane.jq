.libraries.openblas.core_check.older_than_cpu == false and (.libraries.openblas.core_check.cpu_isa | length > 0) and all(.results[]; has("baseline_handicap") | not)
