"""netplay"""
