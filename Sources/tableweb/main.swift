print("tableweb")
