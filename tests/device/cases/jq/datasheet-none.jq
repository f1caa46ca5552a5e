all(.results[]; (has("datasheet") or has("derived_peak")) | not)
