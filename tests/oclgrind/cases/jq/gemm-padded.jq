# The leading dimensions padded by 3 (--ld 3), the kernel of the variant ($args.kernel: its prefix).
.results[0].config.ld_pad == 3 and (.results[0].kernel | startswith($args.kernel))
