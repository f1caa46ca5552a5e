.libraries.openblas.core == "Nehalem" and .libraries.openblas.core_check.chosen_by == "option" and .libraries.openblas.core_check.requested == "Nehalem" and .results[0].status == "ok"
