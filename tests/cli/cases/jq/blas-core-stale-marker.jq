.libraries.openblas.core_check.chosen_by != "clbench" and .libraries.openblas.core_check.openblas_picked == null
