print("tablebench")
